import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM } from '../scripts/chromium';
import type { Figure } from './results-file';
import type { Ports } from './studio-bench';

// Lighthouse (docs/benchmarks.md) on the built studio against its sandbox, with Debian's Chromium:
// performance, accessibility and best practices, for the first screen (connect) and for the connected studio
// with a model form open. Lighthouse drives a tab of a Chromium that Playwright started with a debugging
// port; for the connected page the key is remembered in that profile first (disableStorageReset keeps it).
// Each page and preset is audited three times (LIGHTHOUSE_RUNS): every figure is the median, with the
// range in its note, so none passes or fails by luck. Besides the 0-100 scores: the connect
// screen's first contentful paint, and the studio's layout shift and blocking time, on the phone preset.

// LIGHTHOUSE_DEBUG_PORT moves Chromium's debugging port (two runs on one machine).
const DEBUG_PORT = Number(process.env.LIGHTHOUSE_DEBUG_PORT ?? 9339);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
// LIGHTHOUSE_REPORT_DIR keeps each run's JSON report (its bootup-time, long-tasks... audits) and trace.
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
let reportCount = 0;
// LIGHTHOUSE_ONLY=studio.mobile (page.preset, comma-separated) audits only those, to profile one case.
const ONLY = process.env.LIGHTHOUSE_ONLY?.split(',').map((s) => s.trim());
const chosen = (page: Page, preset: Preset) => !ONLY || ONLY.includes(`${page}.${preset}`);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
type Page = 'connect' | 'studio';
type Preset = 'mobile' | 'desktop';

/** Score targets, the phone's raised: 100 for the (prerendered) connect screen, 98 for the studio. */
function scoreTarget(page: Page, preset: Preset, category: Category): number {
  if (category !== 'performance') return 100;
  if (preset === 'desktop') return 95;
  return page === 'connect' ? 100 : 98;
}

/** Timing figures of the phone preset, from Lighthouse's audits; `scale` turns ms into the unit. */
const METRICS: Record<
  Page,
  Array<{ audit: string; name: string; unit: string; max: number; scale: number }>
> = {
  connect: [{ audit: 'first-contentful-paint', name: 'fcp', unit: 's', max: 1, scale: 1 / 1000 }],
  studio: [
    { audit: 'cumulative-layout-shift', name: 'cls', unit: '', max: 0.02, scale: 1 },
    { audit: 'total-blocking-time', name: 'tbt', unit: 'ms', max: 100, scale: 1 },
  ],
};

interface Run {
  scores: Record<Category, number | null>;
  metrics: Record<string, number>;
  failing: string[];
}

async function audit(url: string, page: Page, preset: Preset): Promise<Run> {
  const result = await lighthouse(
    url,
    {
      port: DEBUG_PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableStorageReset: true,
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    const name = `${page}-${preset}-${++reportCount}`;
    writeFileSync(join(REPORT_DIR, `${name}.json`), JSON.stringify(lhr));
    // The trace Lighthouse recorded: its main-thread tasks, to read with DevTools' Performance panel.
    const trace = (result.artifacts as { Trace?: { traceEvents: unknown[] } }).Trace;
    if (trace) writeFileSync(join(REPORT_DIR, `${name}.trace.json`), JSON.stringify(trace));
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [
      c,
      lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100),
    ]),
  ) as Record<Category, number | null>;
  const metrics = Object.fromEntries(
    METRICS[page].map((m) => [m.name, (lhr.audits[m.audit]?.numericValue ?? NaN) * m.scale]),
  );
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

async function audits(url: string, page: Page, preset: Preset): Promise<Record<string, Figure>> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await audit(url, page, preset);
    console.log(
      `  ${page}.${preset} run ${i + 1}: ${CATEGORIES.map((c) => `${c} ${run.scores[c]}`).join(', ')}${Object.entries(
        run.metrics,
      )
        .map(([k, v]) => `, ${k} ${round(v, 3)}`)
        .join('')}`,
    );
    runs.push(run);
  }
  const out: Record<string, Figure> = {};
  const label = `median of ${runs.length}`;
  for (const c of CATEGORIES) {
    const values = runs.map((r) => r.scores[c]).filter((v): v is number => v !== null);
    const target = scoreTarget(page, preset, c);
    const failing = [...new Set(runs.flatMap((r) => r.failing))]
      .filter((f) => f.startsWith(`${c}:`))
      .map((f) => f.slice(c.length + 2));
    out[`${page}.${preset}.${c}`] = {
      value: values.length ? median(values) : null,
      unit: 'score',
      target: `>= ${target}`,
      ok: values.length ? median(values) >= target : null,
      note: [`${label}, range ${values.length ? range(values, 0) : 'n/a'}`, ...failing].join(', '),
    };
  }
  if (preset === 'mobile')
    for (const m of METRICS[page]) {
      const values = runs.map((r) => r.metrics[m.name]!).filter((v) => Number.isFinite(v));
      const digits = m.unit === 'ms' ? 0 : 3;
      const value = values.length ? round(median(values), digits) : null;
      out[`${page}.mobile.${m.name}`] = {
        value,
        unit: m.unit,
        target: `<= ${m.max}${m.unit ? ` ${m.unit}` : ''}`,
        ok: value === null ? null : value <= m.max,
        note: `${label}, range ${values.length ? range(values, digits) : 'n/a'}`,
      };
    }
  return out;
}

export async function lighthouseScores(ports: Ports, apiKey: string): Promise<Record<string, Figure>> {
  const profile = mkdtempSync(join(tmpdir(), 'studio-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...CHROMIUM,
    headless: true,
    args: [...CHROMIUM.args, `--remote-debugging-port=${DEBUG_PORT}`],
  });
  try {
    const out: Record<string, Figure> = {};
    // The first screen, as a new visitor sees it.
    for (const preset of ['desktop', 'mobile'] as const)
      if (chosen('connect', preset)) Object.assign(out, await audits(`${ports.studio}/`, 'connect', preset));

    // The connected studio: the key remembered in this profile, a model form open from the URL.
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(ports.studio);
    await page.getByLabel('API key', { exact: true }).fill(apiKey);
    await page.getByLabel('Remember this key on this device').check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('tab', { name: 'Models' }).waitFor();
    const studioUrl = `${ports.studio}/?model=lumen-canvas&version=lumen-canvas-v2`;
    for (const preset of ['desktop', 'mobile'] as const)
      if (chosen('studio', preset)) Object.assign(out, await audits(studioUrl, 'studio', preset));
    return out;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
