import { spawn } from 'node:child_process';
import { measureBundle } from './bundle';
import { existsSync, readFileSync } from 'node:fs';
import { RESULTS, print, record, updateReadme, type Figure } from './results-file';
import { lighthouseScores } from './lighthouse';
import { galleryAtScale } from './gallery-bench';
import { historyAtScale, keyOf, launch, pollingSchedule, quoteTyping, type Ports } from './studio-bench';
import { teamBench } from './team-bench';
import { zipOfSandboxImages } from './zip-bench';
import { queueHeld, queueMakespan } from './queue-bench';
import { sandboxLoad } from '../sandbox/bench/load';

// `npm run bench`: every benchmark of issue 7 that this harness has, printed and written to
// bench/results.json. Needs a build (`npm run build`); starts its own studio and sandbox on spare ports.

// Spare ports of its own; BENCH_STUDIO_PORT / BENCH_SANDBOX_PORT move them (two runs on one machine).
const STUDIO_PORT = process.env.BENCH_STUDIO_PORT ?? '4373';
const SANDBOX_PORT = process.env.BENCH_SANDBOX_PORT ?? '4310';
const ports: Ports = {
  studio: `http://127.0.0.1:${STUDIO_PORT}`,
  sandbox: `http://127.0.0.1:${SANDBOX_PORT}`,
};
// BENCH_POLLING=20,1000 runs some of the polling scenarios (20, 100, 1000); their figures replace
// only their own in bench/results.json.
const pollingScenarios = (process.env.BENCH_POLLING ?? '20,100,1000').split(',').map((x) => x.trim());
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

function section(name: string, figures: Record<string, Figure>) {
  print(name, figures);
  record(name, figures);
}

if (wanted('bundle')) section('bundle', measureBundle());

// The sandbox alone, in a child process of its own (sandbox/bench/load.ts).
if (wanted('sandbox')) section('sandbox', await sandboxLoad());

if (['quote', 'history', 'gallery', 'zip', 'polling', 'lighthouse', 'queue'].some(wanted)) {
  const server = spawn('npx', ['tsx', 'scripts/start.ts'], {
    // The queue bench runs 5 s tasks; the others were measured with 4 s ones.
    env: {
      ...process.env,
      PORT: STUDIO_PORT,
      SANDBOX_PORT,
      SANDBOX_TASK_MS: wanted('queue') && only.length === 1 ? '5000' : '4000',
    },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${ports.studio}/config.json`)).ok) break;
      } catch {
        // not up yet
      }
      if (i > 120) throw new Error('The studio did not start.');
      await new Promise((r) => setTimeout(r, 500));
    }
    if (wanted('lighthouse'))
      section('lighthouse', await lighthouseScores(ports, await keyOf(ports, 'personal')));
    const browser = await launch();
    try {
      if (wanted('quote')) section('quote', await quoteTyping(browser, ports));
      if (wanted('history')) section('history', await historyAtScale(browser, ports));
      if (wanted('gallery')) section('gallery', await galleryAtScale(browser, ports));
      if (wanted('zip')) section('zip', await zipOfSandboxImages(browser, ports));
      // BENCH_QUEUE=makespan or =held runs one of the two.
      if (wanted('queue')) {
        const part = process.env.BENCH_QUEUE;
        // One part run alone keeps the other's figures.
        const earlier =
          part && existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')).queue ?? {}) : {};
        const { measuredAt: _at, ...kept } = earlier as Record<string, Figure | string>;
        section('queue', {
          ...(kept as Record<string, Figure>),
          ...(part !== 'held' ? await queueMakespan(browser, ports) : {}),
          ...(part !== 'makespan' ? await queueHeld(browser, ports) : {}),
        });
      }
      if (wanted('polling')) {
        const figures = await pollingSchedule(browser, ports, pollingScenarios);
        const all =
          pollingScenarios.length < 3 && existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
        const kept = Object.fromEntries(
          Object.entries((all.polling ?? {}) as Record<string, Figure | string>).filter(
            ([name, f]) =>
              typeof f !== 'string' && /^(click20|click100|queued1000)\./.test(name) && !(name in figures),
          ),
        ) as Record<string, Figure>;
        section('polling', { ...kept, ...figures });
      }
    } finally {
      await browser.close();
    }
  } finally {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone: the README table is still written below
    }
  }
}

// The team space (issue 23): its own servers and browser; what it measured so far is kept as it goes.
// BENCH_TEAM=latency,cluster runs some scenarios: their figures replace only their own.
if (wanted('team')) {
  const all = process.env.BENCH_TEAM && existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const kept = Object.fromEntries(
    Object.entries((all.team ?? {}) as Record<string, Figure | string>).filter(
      ([, f]) => typeof f !== 'string',
    ),
  ) as Record<string, Figure>;
  const figures = await teamBench((partial) => record('team', { ...kept, ...partial }));
  section('team', { ...kept, ...figures });
}

// The README shows every figure beside its target.
await updateReadme();
