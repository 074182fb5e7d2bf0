import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import sharp from 'sharp';
import { sandboxProcessEnv } from '../node-shared/process-env';
import type { SoakSandboxState } from './soak-sandbox';
import { slope } from './soak';

// The sandbox's memory under a long, steady load, without a browser:
//   npx tsx bench/rss-soak.ts [--minutes N] [--env NAME=VALUE ...] [--no-process-env]
// It starts the soak's sandbox (bench/soak-sandbox.ts, in a child process, so its memory is its own) with
// the environment every launcher gives it (node-shared/process-env.ts; --no-process-env leaves that out,
// to measure without it) plus any --env (an empty VALUE removes the variable), and drives the API at a
// fixed rate whatever the answers take: a round every ROUND_MS, each round an image task (512 or 1K), an
// upload of a small PNG (every tenth a 1 MB one), each read back, every output downloaded; every fifth round a
// video and a sound as well. The child's media cache is kept at 8 MiB (full within the first minute,
// so that its filling is not read as growth). The child's resident memory, JS heap and external memory, after a garbage
// collection, are sampled every SAMPLE_MS; at the end it prints them and their least-squares slope in MB
// per hour from the first minute on (the first minute loads libvips and ffmpeg and fills the pools once).
// Runs are comparable when they ran the same minutes: the mix and the rate do not depend on the machine.

const args = process.argv.slice(2);
const flag = (name: string) => args.indexOf(name);
const minutes = flag('--minutes') === -1 ? 10 : Number(args[flag('--minutes') + 1]);
if (!(minutes > 0)) throw new Error('--minutes: a positive number of minutes.');
const extraEnv: Record<string, string> = {};
args.forEach((a, i) => {
  if (a !== '--env') return;
  const [name, ...value] = args[i + 1]!.split('=');
  extraEnv[name!] = value.join('=');
});
const ROUND_MS = 3000;
const SAMPLE_MS = 15_000;
const KEY = 'team';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const port = await freePort();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...(args.includes('--no-process-env') ? {} : sandboxProcessEnv()),
  ...extraEnv,
  SOAK_SANDBOX_PORT: String(port),
  SOAK_MEDIA_MEMORY_MB: '8',
  SOAK_STUDIO_ORIGIN: 'http://127.0.0.1:1',
};
for (const [name, value] of Object.entries(env)) if (value === '') delete env[name];
const child = fork('bench/soak-sandbox.ts', {
  execArgv: ['--expose-gc', '--import', 'tsx'],
  env,
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
await new Promise<void>((resolve, reject) => {
  child.once('message', () => resolve());
  child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
});
const origin = `http://127.0.0.1:${port}`;

/** The child's memory (its IPC answer, after a garbage collection), one question at a time. */
let asking = Promise.resolve();
function memory(): Promise<SoakSandboxState> {
  const answer = asking.then(
    () =>
      new Promise<SoakSandboxState>((resolve) => {
        child.once('message', (m: SoakSandboxState) => resolve(m));
        child.send({ keyName: KEY });
      }),
  );
  asking = answer.then(() => undefined);
  return answer;
}

const keys = (await (await fetch(`${origin}/__sandbox/keys`)).json()) as Array<{ name: string; key: string }>;
const auth = { Authorization: `Bearer ${keys.find((k) => k.name === KEY)!.key}` };
// The rate is set by this script, not by the per-minute limits.
await fetch(`${origin}/__sandbox/limits`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ 'tasks.create': 10_000, 'tasks.get': 100_000, 'uploads.create': 10_000 }),
}).then(async (r) => {
  if (!r.ok) throw new Error(`POST /__sandbox/limits answered ${r.status}: ${await r.text()}`);
});

const smallPng = await sharp({
  create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } },
})
  .png()
  .toBuffer();
const side = 600; // noise, stored uncompressed: about 1 MB
const bigPng = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
  .png({ compressionLevel: 0 })
  .toBuffer();

const counts = { tasks: 0, uploads: 0, downloads: 0, failed: 0 };
const failures: string[] = [];
const fail = (what: string, e: unknown) => {
  counts.failed++;
  if (failures.length < 5) failures.push(`${what}: ${String(e).split('\n')[0]}`);
};

async function download(url: string): Promise<void> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`GET ${url} answered ${r.status}`);
  await r.arrayBuffer();
  counts.downloads++;
}

async function task(interfaceId: string, versionId: string, params: Record<string, unknown>): Promise<void> {
  const created = await fetch(`${origin}/v1/tasks`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ interfaceId, versionId, params }),
  });
  if (!created.ok) throw new Error(`POST /v1/tasks answered ${created.status}: ${await created.text()}`);
  const { taskId } = (await created.json()) as { taskId: string };
  counts.tasks++;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const t = (await (await fetch(`${origin}/v1/tasks/${taskId}`, { headers: auth })).json()) as {
      status: string;
      outputs?: Array<{ url: string; posterUrl?: string }>;
    };
    if (t.status === 'queued' || t.status === 'running') continue;
    if (t.status !== 'succeeded') throw new Error(`task ${taskId} ended ${t.status}`);
    for (const o of t.outputs ?? []) {
      await download(o.url);
      if (o.posterUrl) await download(o.posterUrl);
    }
    return;
  }
}

async function upload(png: Buffer): Promise<void> {
  const r = await fetch(`${origin}/v1/uploads`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'image/png' },
    body: new Uint8Array(png),
  });
  if (!r.ok) throw new Error(`POST /v1/uploads answered ${r.status}: ${await r.text()}`);
  counts.uploads++;
  await download(((await r.json()) as { url: string }).url);
}

function round(i: number): Promise<unknown> {
  const jobs: Array<[string, () => Promise<void>]> = [
    [
      'image',
      () =>
        task('pixelmoss-pop', 'pixelmoss-pop-1', {
          prompt: `rss soak ${i}`,
          resolution: i % 2 ? '1K' : '512',
        }),
    ],
    ['upload', () => upload(i % 10 === 5 ? bigPng : smallPng)],
  ];
  if (i % 5 === 0) {
    jobs.push(
      [
        'video',
        () =>
          task('halcyon-dream', 'halcyon-dream-1-5', {
            prompt: `rss soak ${i}`,
            duration: '5',
            resolution: '480p',
          }),
      ],
      ['audio', () => task('echoform-foley', 'echoform-foley-1', { prompt: `rss soak ${i}`, duration: '2' })],
    );
  }
  return Promise.all(jobs.map(([what, job]) => job().catch((e: unknown) => fail(what, e))));
}

interface Sample {
  atMs: number;
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  mediaCacheMb: number;
}
const samples: Sample[] = [];
const started = Date.now();
const deadline = started + minutes * 60_000;
const sample = async () => {
  const { rssMb, heapUsedMb, externalMb, mediaCacheMb } = await memory();
  const s = { atMs: Date.now() - started, rssMb, heapUsedMb, externalMb, mediaCacheMb };
  samples.push(s);
  console.log(
    `${(s.atMs / 60_000).toFixed(2)} min: RSS ${rssMb.toFixed(1)} MB, heap ${heapUsedMb.toFixed(1)}, external ${externalMb.toFixed(1)} (media cache ${mediaCacheMb.toFixed(1)}); ${JSON.stringify(counts)}`,
  );
};

const inFlight = new Set<Promise<unknown>>();
await sample();
const sampler = setInterval(() => void sample(), SAMPLE_MS);
for (let i = 0; Date.now() < deadline; i++) {
  const p = round(i).finally(() => inFlight.delete(p));
  inFlight.add(p);
  // On a schedule, not after the round's end: every run makes the same requests at the same rate.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + (i + 1) * ROUND_MS - Date.now())));
}
clearInterval(sampler);
await Promise.all(inFlight);
await sample();
child.kill('SIGTERM');

const hours = (ms: number) => ms / 3_600_000;
const from = samples.filter((s) => s.atMs >= 60_000);
const per = (pick: (s: Sample) => number) => {
  const v = slope(from.map((s) => [hours(s.atMs), pick(s)]));
  return v === null ? null : Math.round(v * 10) / 10;
};
const result = {
  env: Object.fromEntries(
    ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_', 'LD_PRELOAD'].map((n) => [n, env[n] ?? null]),
  ),
  minutes,
  counts,
  failures,
  rssSlopeMbPerHour: per((s) => s.rssMb),
  heapSlopeMbPerHour: per((s) => s.heapUsedMb),
  externalSlopeMbPerHour: per((s) => s.externalMb),
  // Resident memory less what JavaScript holds: the native share (libvips, the allocator).
  nativeSlopeMbPerHour: per((s) => s.rssMb - s.heapUsedMb - s.externalMb),
  rssAtMinute1Mb: Math.round(from[0]?.rssMb ?? NaN),
  rssEndMb: Math.round(samples.at(-1)!.rssMb),
  rssPeakMb: Math.round(Math.max(...samples.map((s) => s.rssMb))),
};
console.log(JSON.stringify(result));
