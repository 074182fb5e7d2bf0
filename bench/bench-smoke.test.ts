import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The benches' smoke: `npm run bench -- team`, `-- history`, `-- search` and the others below run as
// `npm run bench` runs them (tsx, bench/run.ts: the Lingui hook, the dynamic import, the scenarios' code),
// on scenarios small enough for seconds, so a bench that throws fails `npm test` instead of the next
// person who runs it. Their figures go to a temporary file (BENCH_RESULTS), never to bench/results.json
// or docs/benchmarks.md.
// No figure is checked: a tiny run measures nothing; it must only finish and write its figures.

const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bench(name: string, env: Record<string, string>, timeout = 150_000) {
  const results = join(dir, `${name}.json`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', name], {
    env: { ...process.env, BENCH_RESULTS: results, BENCH_RUNS: '1', ...env },
    encoding: 'utf8',
    timeout,
  });
  const said = `${run.stdout}\n${run.stderr}`.slice(-3000);
  expect(run.status, said).toBe(0);
  return JSON.parse(readFileSync(results, 'utf8')) as Record<string, Record<string, unknown>>;
}

describe('bench smoke', () => {
  it('team: a board edit on one node, and members with slow readers, run through bench/run.ts', () => {
    const team = bench('team', {
      BENCH_TEAM: 'latency,readers',
      BENCH_TEAM_EDITS: '5',
      BENCH_TEAM_SLOW_MEMBERS: '4',
      BENCH_TEAM_SLOW_READERS: '2',
      BENCH_TEAM_SLOW_MS: '6000',
      // Ports of its own, away from a bench or e2e run on the same machine.
      BENCH_TEAM_STUDIO_PORT: '4991',
    }).team!;
    for (const figure of [
      'boardEditOneNode.p95',
      'slowReaders.rssPeak',
      'slowReaders.closed',
      'refereeCheck.p95',
    ])
      expect(team, figure).toHaveProperty(figure);
  }, 180_000);

  it('search: 2,000 tasks indexed in the background and searched a keystroke at a time, through bench/run.ts', () => {
    // Pure model code in the bench's own process: no build, no studio, no ports.
    const search = bench('search', { BENCH_HISTORY_TASKS: '2000' }).search!;
    for (const figure of [
      'keystrokeMedian',
      'keystrokeP95',
      'backgroundBuild',
      'backgroundBuildLongestSlice',
      'savedSearchCountsMedian',
      'savedSearchCountsP95',
    ])
      expect(search).toHaveProperty(figure);
  }, 180_000);

  // The History lives in the built studio: without a build (`npm test` builds after the unit tests) there
  // is nothing to drive, and this says so as a skipped test; `npm test` runs it again once it has built
  // (npm run test:bench-smoke, BENCH_SMOKE_BUILT=1), where a missing build fails it instead.
  it.runIf(existsSync('dist/index.html') || process.env.BENCH_SMOKE_BUILT === '1')(
    'history: 300 tasks imported, the reload and the scroll, through bench/run.ts',
    () => {
      const history = bench('history', {
        BENCH_HISTORY_TASKS: '300',
        BENCH_STUDIO_PORT: '4992',
        BENCH_SANDBOX_PORT: '4993',
      }).history!;
      expect(history).toHaveProperty('longestTaskWhileScrolling');
    },
    180_000,
  );

  it.runIf(existsSync('dist/index.html') || process.env.BENCH_SMOKE_BUILT === '1')(
    'report: the Model report over two boards of 8 x 20 and a board’s export with its pictures, through bench/run.ts',
    () => {
      const report = bench('report', {
        BENCH_REPORT_BOARDS: '2',
        BENCH_REPORT_IMAGES: '4',
        BENCH_REPORT_RENDER_RUNS: '1',
        BENCH_STUDIO_PORT: '4998',
        BENCH_SANDBOX_PORT: '4999',
      }).report!;
      for (const figure of ['categoryRenderMs', 'exportMb']) expect(report).toHaveProperty(figure);
    },
    180_000,
  );

  it.runIf(existsSync('dist/index.html') || process.env.BENCH_SMOKE_BUILT === '1')(
    'queue: 1,000 held tasks, the reload, keyboard moves and removals, through bench/run.ts',
    () => {
      const queue = bench('queue', {
        BENCH_QUEUE: 'held',
        // Over a thousand, so the count is written grouped, "(1,000)", as the full bench sees it.
        BENCH_QUEUE_HELD: '1000',
        BENCH_STUDIO_PORT: '4994',
        BENCH_SANDBOX_PORT: '4995',
      }).queue!;
      expect(queue).toHaveProperty('held1000LongestTask');
    },
    180_000,
  );

  it.runIf(existsSync('dist/index.html') || process.env.BENCH_SMOKE_BUILT === '1')(
    'team join: a team of 3,000 earlier tasks in the store and the room’s 1,000, the join, the search, the year back and the member back again, on one node and on two (Redis + PostgreSQL), through bench/run.ts',
    () => {
      const team = bench(
        'team',
        {
          BENCH_TEAM: 'join,joinCluster',
          BENCH_TEAM_HISTORY_TASKS: '3000',
          BENCH_TEAM_STUDIO_PORT: '4996',
          BENCH_TEAM_SANDBOX_PORT: '4997',
        },
        330_000,
      ).team!;
      for (const prefix of ['', 'cluster.'])
        for (const figure of [
          'joinTeamHistory',
          'joinAgainLongestTask',
          'searchTeamHistory',
          'teamHistoryStore',
          'galleryYearBackLongestTask',
        ])
          expect(team, prefix + figure).toHaveProperty([prefix + figure]);
    },
    360_000,
  );
});
