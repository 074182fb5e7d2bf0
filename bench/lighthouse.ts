import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM } from '../scripts/chromium';
import { precompressFile } from '../scripts/precompress';
import { createStudioServer, studioSettings } from '../server/studio-server';
import type { Figure } from './results-file';
import type { Ports } from './studio-bench';

// Lighthouse (docs/benchmarks.md) on the built studio against its sandbox, with Debian's Chromium, on two
// pages (the connect screen a new visitor gets, and the connected studio with a model form open for a
// visitor whose key is remembered) and three visits:
// - first: what a browser that never saw the studio gets: a fresh profile each run (an empty cache), the
//   service worker blocked (its script refused, so none registers); for the studio, the key remembered by
//   connecting in that profile first, with service workers blocked, and the HTTP cache emptied after;
// - returning: the same profile again and again, the service worker installed and serving the code;
// - floor: the prerendered index.html as built, with its stylesheet linked and every script taken out,
//   served by the same server (gzip, the same headers) on a port of its own: what the network allows. Each
//   first-visit timing is also given as a ratio to the floor's, measured in the same run.
// Each is audited LIGHTHOUSE_RUNS times (default 5): every figure is the median, with the range in its note,
// so none passes or fails by luck. The phone preset (Lighthouse's default simulated throttling) for all,
// the desktop preset for the returning visit too.

// LIGHTHOUSE_DEBUG_PORT moves Chromium's debugging port (two runs on one machine).
const DEBUG_PORT = Number(process.env.LIGHTHOUSE_DEBUG_PORT ?? 9339);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
// LIGHTHOUSE_REPORT_DIR keeps each run's JSON report (its bootup-time, long-tasks... audits) and trace.
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const PROFILE = process.env.LIGHTHOUSE_PROFILE === '1';
let reportCount = 0;
// LIGHTHOUSE_ONLY=first.studio.mobile (visit.page.preset, comma-separated) audits only those, to profile one
// case; the floor is audited whenever a first visit is.
const ONLY = process.env.LIGHTHOUSE_ONLY?.split(',').map((s) => s.trim());
const chosen = (name: string) =>
  !ONLY || ONLY.includes(name) || (name.startsWith('floor.') && !!ONLY.some((o) => o.startsWith('first.')));

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
type Visit = 'first' | 'returning' | 'floor';
type Page = 'connect' | 'studio';
type Preset = 'mobile' | 'desktop';

/** Score targets: 100, but performance on the desktop preset (95, its simulated CPU is not the phone's). */
const scoreTarget = (preset: Preset, category: Category) =>
  category === 'performance' && preset === 'desktop' ? 95 : 100;

/** Timings of the phone preset from Lighthouse's audits; `scale` turns its ms into the unit. */
const METRICS = [
  { audit: 'first-contentful-paint', name: 'fcp', unit: 's', scale: 1 / 1000, digits: 2 },
  { audit: 'largest-contentful-paint', name: 'lcp', unit: 's', scale: 1 / 1000, digits: 2 },
  { audit: 'total-blocking-time', name: 'tbt', unit: 'ms', scale: 1, digits: 0 },
  { audit: 'cumulative-layout-shift', name: 'cls', unit: '', scale: 1, digits: 3 },
] as const;
type Metric = (typeof METRICS)[number]['name'];

/** Targets of the phone preset (issue "the first visit"): null is reported only. */
function metricTarget(visit: Visit, metric: Metric): number | null {
  if (visit === 'floor') return null;
  if (metric === 'cls') return 0.02;
  if (visit === 'first') return { fcp: 1, lcp: 1.2, tbt: 50 }[metric];
  return metric === 'tbt' ? 50 : null;
}
/** A first visit's FCP and LCP at most this many times the floor's (10 % above it). */
const FLOOR_RATIO = 1.1;

interface Run {
  scores: Record<Category, number | null>;
  metrics: Record<Metric, number>;
  failing: string[];
}

async function audit(url: string, name: string, preset: Preset, visit: Visit): Promise<Run> {
  const result = await lighthouse(
    url,
    {
      port: DEBUG_PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // LIGHTHOUSE_PROFILE=1: V8's sampling profiler in the kept trace, to see which functions a long task
      // ran (it slows the page down: figures measured with it are not comparable).
      ...(PROFILE ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}),
      // The first visit's profile is fresh, its cache emptied (and the stored key kept); the returning
      // visit's keeps its service worker and cache; the floor's is reset by Lighthouse.
      disableStorageReset: visit !== 'floor',
      // No service worker on a first visit: its script is refused, so it never registers.
      ...(visit === 'returning' ? {} : { blockedUrlPatterns: ['*/sw.js'] }),
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    const file = `${name}-${++reportCount}`;
    writeFileSync(join(REPORT_DIR, `${file}.json`), JSON.stringify(lhr));
    // The trace Lighthouse recorded: its main-thread tasks, to read with DevTools' Performance panel.
    const trace = (result.artifacts as { Trace?: { traceEvents: unknown[] } }).Trace;
    if (trace) writeFileSync(join(REPORT_DIR, `${file}.trace.json`), JSON.stringify(trace));
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [
      c,
      lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100),
    ]),
  ) as Record<Category, number | null>;
  const metrics = Object.fromEntries(
    METRICS.map((m) => [m.name, (lhr.audits[m.audit]?.numericValue ?? NaN) * m.scale]),
  ) as Record<Metric, number>;
  // What cost points, to read beside the figures.
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((a): a is NonNullable<typeof a> => !!a && a.score !== null && a.score < 0.9)
      .map((a) => `${c}: ${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`),
  );
  return { scores, metrics, failing };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const range = (xs: number[], digits: number) =>
  `${round(Math.min(...xs), digits)}-${round(Math.max(...xs), digits)}`;

const VISIT_NAMES: Record<Visit, string> = {
  first: 'first visit: fresh profile, empty cache, service worker blocked',
  returning: 'returning visit: the service worker serving the code',
  floor: 'the floor: the prerendered page and its stylesheet, no script',
};

/** The figures of `runs` audits of one visit, page and preset. */
function figuresOf(name: string, visit: Visit, preset: Preset, runs: Run[]): Record<string, Figure> {
  const out: Record<string, Figure> = {};
  const label = `${VISIT_NAMES[visit]}; median of ${runs.length}`;
  for (const c of CATEGORIES) {
    if (visit === 'floor' && c !== 'performance') continue;
    const values = runs.map((r) => r.scores[c]).filter((v): v is number => v !== null);
    const target = scoreTarget(preset, c);
    const failing = [...new Set(runs.flatMap((r) => r.failing))]
      .filter((f) => f.startsWith(`${c}:`))
      .map((f) => f.slice(c.length + 2));
    const value = values.length ? median(values) : null;
    out[`${name}.${c}`] = {
      value,
      unit: 'score',
      target: visit === 'floor' ? 'reported' : `>= ${target}`,
      ok: visit === 'floor' ? true : value === null ? null : value >= target,
      note: [`${label}, range ${values.length ? range(values, 0) : 'n/a'}`, ...failing].join(', '),
    };
  }
  if (preset === 'mobile')
    for (const m of METRICS) {
      const values = runs.map((r) => r.metrics[m.name]).filter((v) => Number.isFinite(v));
      const value = values.length ? round(median(values), m.digits) : null;
      const max = metricTarget(visit, m.name);
      out[`${name}.${m.name}`] = {
        value,
        unit: m.unit,
        target: max === null ? 'reported' : `<= ${max}${m.unit ? ` ${m.unit}` : ''}`,
        ok: max === null ? true : value === null ? null : value <= max,
        note: `${label}, range ${values.length ? range(values, m.digits) : 'n/a'}`,
      };
    }
  return out;
}

/** A first visit's FCP and LCP against the floor's, medians of the same run. */
function floorRatios(name: string, first: Record<string, Figure>, floor: Record<string, Figure>) {
  const out: Record<string, Figure> = {};
  for (const metric of ['fcp', 'lcp'] as const) {
    const mine = first[`${name}.${metric}`]?.value;
    const theirs = floor[`floor.mobile.${metric}`]?.value;
    if (typeof mine !== 'number' || typeof theirs !== 'number' || theirs <= 0) continue;
    const ratio = round(mine / theirs, 2);
    out[`${name}.${metric}VsFloor`] = {
      value: ratio,
      unit: 'x',
      target: `<= ${FLOOR_RATIO}`,
      ok: ratio <= FLOOR_RATIO,
      note: `the median ${metric.toUpperCase()} of the ${VISIT_NAMES.first} (${mine} s) over the floor's (${theirs} s), same run`,
    };
  }
  return out;
}

/** A Chromium with a debugging port for Lighthouse, on a fresh profile, removed by `close`. */
async function browserOn(options: { blockServiceWorkers: boolean }) {
  const profile = mkdtempSync(join(tmpdir(), 'studio-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...CHROMIUM,
    headless: true,
    args: [...CHROMIUM.args, `--remote-debugging-port=${DEBUG_PORT}`],
    serviceWorkers: options.blockServiceWorkers ? 'block' : 'allow',
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Remembers the key in this profile, as a visitor who ticked "Remember this key on this device". */
async function rememberKey(context: BrowserContext, ports: Ports, apiKey: string) {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(ports.studio);
  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await page.getByLabel('Remember this key on this device').check();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('tab', { name: 'Models' }).waitFor();
  return page;
}

/** The floor page: dist/index.html without a script, its stylesheet linked as Vite linked it. */
function floorPage(distDir: string): string {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const floor = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<noscript>(<link rel="stylesheet"[^>]*>)<\/noscript>/g, '$1');
  if (!/<link rel="stylesheet"/.test(floor) || /<script/.test(floor))
    throw new Error('dist/index.html: no stylesheet to link for the floor page');
  return floor;
}

/** Serves the floor page with the studio's own server (Brotli, headers) and assets, on a spare port. */
async function floorServer(distDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-floor-'));
  writeFileSync(join(dir, 'index.html'), floorPage(distDir));
  // Compressed as the build compresses the real page (scripts/precompress.ts), so both are sent alike.
  precompressFile(join(dir, 'index.html'));
  symlinkSync(join(distDir, 'assets'), join(dir, 'assets'));
  const server: Server = createStudioServer(
    studioSettings({ TEAM_SPACE: 'off' }, { origin: 'http://127.0.0.1' }),
    dir,
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const log = (name: string, i: number, run: Run) =>
  console.log(
    `  ${name} run ${i + 1}: ${CATEGORIES.map((c) => `${c} ${run.scores[c]}`).join(', ')}${METRICS.map(
      (m) => `, ${m.name} ${round(run.metrics[m.name], m.digits)}`,
    ).join('')}`,
  );

export async function lighthouseScores(ports: Ports, apiKey: string): Promise<Record<string, Figure>> {
  const distDir = resolve(process.env.BENCH_STUDIO_DIR ?? process.cwd(), 'dist');
  const studioUrl = `${ports.studio}/?model=lumen-canvas&version=lumen-canvas-v2`;
  const urls: Record<Page, string> = { connect: `${ports.studio}/`, studio: studioUrl };
  const runs = new Map<string, Run[]>();
  const add = (name: string, run: Run) => {
    log(name, runs.get(name)?.length ?? 0, run);
    runs.set(name, [...(runs.get(name) ?? []), run]);
  };

  // The first visit and the floor, interleaved run by run, so a busy moment of the machine weighs on both.
  const floor = await floorServer(distDir);
  try {
    for (let i = 0; i < RUNS; i++) {
      if (chosen('floor.mobile')) {
        const browser = await browserOn({ blockServiceWorkers: true });
        try {
          add('floor.mobile', await audit(floor.url, 'floor.mobile', 'mobile', 'floor'));
        } finally {
          await browser.close();
        }
      }
      for (const page of ['connect', 'studio'] as const) {
        const name = `first.${page}.mobile`;
        if (!chosen(name)) continue;
        const browser = await browserOn({ blockServiceWorkers: true });
        try {
          if (page === 'studio') {
            const tab = await rememberKey(browser.context, ports, apiKey);
            // The key stays; the code the connection loaded does not.
            const cdp = await browser.context.newCDPSession(tab);
            await cdp.send('Network.clearBrowserCache');
            await tab.goto('about:blank');
          }
          add(name, await audit(urls[page], name, 'mobile', 'first'));
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    await floor.close();
  }

  // The returning visit: one profile per page, where the page was opened once and its worker took over.
  for (const page of ['connect', 'studio'] as const) {
    const names = (['mobile', 'desktop'] as const)
      .map((preset) => ({ preset, name: `returning.${page}.${preset}` }))
      .filter(({ name }) => chosen(name));
    if (names.length === 0) continue;
    const browser = await browserOn({ blockServiceWorkers: false });
    try {
      const tab =
        page === 'studio'
          ? await rememberKey(browser.context, ports, apiKey)
          : (browser.context.pages()[0] ?? (await browser.context.newPage()));
      await tab.goto(urls[page]);
      await tab.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      for (const { preset, name } of names)
        for (let i = 0; i < RUNS; i++) add(name, await audit(urls[page], name, preset, 'returning'));
    } finally {
      await browser.close();
    }
  }

  const out: Record<string, Figure> = {};
  for (const [name, list] of runs) {
    const [visit, , preset] = name.split('.') as [Visit, string, Preset];
    Object.assign(out, figuresOf(name, visit, name === 'floor.mobile' ? 'mobile' : preset, list));
  }
  for (const page of ['connect', 'studio'] as const)
    Object.assign(out, floorRatios(`first.${page}.mobile`, out, out));
  return out;
}
