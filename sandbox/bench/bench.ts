import { benchMedia } from '../src/media/bench-media';
import { sandboxLoad } from './load';
import { sandboxStorms } from './storms';

// `npm run bench:sandbox`: the sandbox under load (requests per second on GET /tasks/{id} and POST /tasks,
// resident memory after 1,000 tasks and 100 uploads of 10 MB: ./load.ts; ten 100 MB uploads at once and a
// render storm: ./storms.ts) and the time to make each kind of output. Prints figures; `npm run bench -- sandbox` runs the same load figures and records them in
// bench/results.json and the README's table. It is a measurement, not a test.

console.log('sandbox under load');
for (const [name, f] of Object.entries({ ...(await sandboxLoad()), ...(await sandboxStorms()) })) {
  console.log(`  ${name.padEnd(22)} ${String(f.value).padStart(7)} ${f.unit.padEnd(6)} ${f.note ?? ''}`);
}
for (const { kind, ms } of await benchMedia()) console.log(`make ${kind}: ${ms} ms`);
