import { spawn } from 'node:child_process';
import { measureBundle } from './bundle';
import { existsSync, readFileSync } from 'node:fs';
import { REAL_RESULTS, RESULTS, print, record, updateReadme, type Figure } from './results-file';
import { lighthouseScores } from './lighthouse';
import { galleryAtScale } from './gallery-bench';
import {
  historyAtScale,
  keyOf,
  launch,
  pollingSchedule,
  quoteTyping,
  type PollingScenario,
  type Ports,
} from './studio-bench';
import { soak } from './soak';
import type { Browser } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { zipOfSandboxImages } from './zip-bench';
import { modelReportAtScale } from './report-bench';
import { queueHeld, queueMakespan } from './queue-bench';
import { sandboxLoad } from '../sandbox/bench/load';
import { sandboxStorms } from '../sandbox/bench/storms';
import { registerLinguiMacros } from '../scripts/tsx-lingui-loader';

// `npm run bench`: every benchmark this harness has, printed and written to
// bench/results.json. Needs a build (`npm run build`); starts its own studio and sandbox on spare ports.

// Spare ports of its own; BENCH_STUDIO_PORT / BENCH_SANDBOX_PORT move them (two runs on one machine).
const STUDIO_PORT = process.env.BENCH_STUDIO_PORT ?? '4373';
const SANDBOX_PORT = process.env.BENCH_SANDBOX_PORT ?? '4310';
const ports: Ports = {
  studio: `http://127.0.0.1:${STUDIO_PORT}`,
  sandbox: `http://127.0.0.1:${SANDBOX_PORT}`,
};
// BENCH_POLLING=20,1000 runs some of the polling scenarios (20, 100, 1000 on the sandbox's 4 s tasks;
// 100at5s on 5 s tasks); their figures replace only their own in bench/results.json.
const pollingScenarios = (process.env.BENCH_POLLING ?? '20,100,100at5s,1000')
  .split(',')
  .map((x) => x.trim()) as PollingScenario[];
// `--minutes N`: the soak's length (default 30).
const args = process.argv.slice(2);
const minutesAt = args.indexOf('--minutes');
const soakMinutes = minutesAt === -1 ? 30 : Number(args[minutesAt + 1]);
if (!(soakMinutes > 0)) throw new Error('--minutes: a positive number of minutes.');
const only = args.filter((_a, i) => minutesAt === -1 || (i !== minutesAt && i !== minutesAt + 1));
const wanted = (name: string) => only.length === 0 || only.includes(name);

function section(name: string, figures: Record<string, Figure>) {
  print(name, figures);
  record(name, figures);
}

/**
 * Runs `work` against a studio and sandbox of its own (the sandbox's tasks run `taskMs`), then stops
 * them. BENCH_STUDIO_DIR: a directory holding another build (dist/) to serve, so a long bench can run
 * while this worktree builds again.
 */
async function withStudio(taskMs: number, work: (browser: Browser) => Promise<void>): Promise<void> {
  const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  const server = spawn(here('../node_modules/.bin/tsx'), [here('../server/start.ts')], {
    env: { ...process.env, PORT: STUDIO_PORT, SANDBOX_PORT, SANDBOX_TASK_MS: String(taskMs) },
    cwd: process.env.BENCH_STUDIO_DIR ?? process.cwd(),
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
      // A loaded machine may take minutes to compile and start it.
      if (i > 600) throw new Error('The studio did not start in 5 minutes.');
      await new Promise((r) => setTimeout(r, 500));
    }
    const browser = await launch();
    try {
      await work(browser);
    } finally {
      await browser.close();
    }
  } finally {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone: the table in docs/benchmarks.md is still written below
    }
    // The ports free again before the next studio starts.
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

/** The polling figures measured now, beside those of the scenarios not run this time. */
function pollingSection(figures: Record<string, Figure>) {
  const all = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const ran = (name: string) => name.split('.')[0]!;
  const measured = new Set(Object.keys(figures).map(ran));
  const kept = Object.fromEntries(
    Object.entries((all.polling ?? {}) as Record<string, Figure | string>).filter(
      ([name, f]) => typeof f !== 'string' && !measured.has(ran(name)),
    ),
  ) as Record<string, Figure>;
  section('polling', { ...kept, ...figures });
}

if (wanted('bundle')) section('bundle', measureBundle());

// The search (docs/benchmarks.md "search"): pure model code, run in this process (no studio, no browser).
// It reaches gallery-filter.ts, whose labels are Lingui macros: compiled by the hook, loaded after it.
if (wanted('search')) {
  registerLinguiMacros();
  const { searchAtScale } = await import('./search-bench');
  section('search', await searchAtScale());
}

// The sandbox alone, in a child process of its own (sandbox/bench/load.ts).
// BENCH_SANDBOX=storms runs only the storms (ten 100 MB uploads, a render storm) and keeps the other figures.
if (wanted('sandbox')) {
  const stormsOnly = process.env.BENCH_SANDBOX === 'storms';
  const all = stormsOnly && existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const kept = Object.fromEntries(
    Object.entries((all.sandbox ?? {}) as Record<string, Figure | string>).filter(
      ([, f]) => typeof f !== 'string',
    ),
  ) as Record<string, Figure>;
  const load = stormsOnly ? kept : await sandboxLoad();
  section('sandbox', { ...load, ...(await sandboxStorms()) });
}

const at4s = pollingScenarios.filter((s) => s !== '100at5s');
if (
  ['quote', 'history', 'gallery', 'zip', 'report', 'lighthouse'].some(wanted) ||
  (wanted('polling') && at4s.length)
) {
  await withStudio(4000, async (browser) => {
    if (wanted('lighthouse'))
      section('lighthouse', await lighthouseScores(ports, await keyOf(ports, 'personal')));
    if (wanted('quote')) section('quote', await quoteTyping(browser, ports));
    if (wanted('history')) section('history', await historyAtScale(browser, ports));
    if (wanted('gallery')) section('gallery', await galleryAtScale(browser, ports));
    if (wanted('zip')) section('zip', await zipOfSandboxImages(browser, ports));
    if (wanted('report')) section('report', await modelReportAtScale(browser, ports));
    if (wanted('polling') && at4s.length) pollingSection(await pollingSchedule(browser, ports, at4s, 4000));
  });
}
// The scenario polling was specified with: 5 s tasks, so the team's pool of 5 finishes one a second.
if (wanted('polling') && pollingScenarios.includes('100at5s')) {
  await withStudio(5000, async (browser) =>
    pollingSection(await pollingSchedule(browser, ports, ['100at5s'], 5000)),
  );
}

// The queue (docs/queue.md) on 5 s tasks, the load it was specified with. BENCH_QUEUE=makespan or =held runs one of
// the two; one part run alone keeps the other's figures.
if (wanted('queue')) {
  await withStudio(5000, async (browser) => {
    const part = process.env.BENCH_QUEUE;
    const earlier =
      part && existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')).queue ?? {}) : {};
    const { measuredAt: _at, ...kept } = earlier as Record<string, Figure | string>;
    section('queue', {
      ...(kept as Record<string, Figure>),
      ...(part !== 'held' ? await queueMakespan(browser, ports) : {}),
      ...(part !== 'makespan' ? await queueHeld(browser, ports) : {}),
    });
  });
}

// The team space (docs/team-space.md): its own servers and browser; what it measured so far is kept as it goes.
// BENCH_TEAM=latency,cluster runs some scenarios: their figures replace only their own.
if (wanted('team')) {
  const all = process.env.BENCH_TEAM && existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const kept = Object.fromEntries(
    Object.entries((all.team ?? {}) as Record<string, Figure | string>).filter(
      ([, f]) => typeof f !== 'string',
    ),
  ) as Record<string, Figure>;
  // It runs the studio's model code, whose messages are Lingui macros: compiled here by the build's own
  // Babel setup, through a module hook after tsx's (scripts/tsx-lingui-loader.ts). Loaded only when asked
  // for, after the hook is in.
  registerLinguiMacros();
  const { teamBench } = await import('./team-bench');
  const figures = await teamBench((partial) => record('team', { ...kept, ...partial }));
  section('team', { ...kept, ...figures });
}

// The soak: a scripted creator under a fault a minute; its own studio server and sandbox on the bench's
// ports. Only when asked for by name: it takes half an hour.
if (only.includes('soak')) section('soak', await soak({ minutes: soakMinutes, ports }));

// docs/benchmarks.md shows every figure beside its target (bench/results.json's, never a smoke's).
if (REAL_RESULTS) await updateReadme();
