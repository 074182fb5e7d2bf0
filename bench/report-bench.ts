import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { servePage } from './bench-page';
import type { Figure } from './results-file';
import { loadAverage, loadRange, RUNS, spread } from './three-runs';
import type { Ports } from './studio-bench';
import { sandboxImages } from './zip-bench';

// The Model report at a team's scale (docs/benchmarks.md "report"), in Chromium on the studio's own
// modules (bench/report-page, built here with Vite):
// - render: the dialog switched to every board of the category, 50 boards of 8 models x 20 prompts (8,000
//   tasks) with 10 members' blind votes on every row (10,000 votes of 8 candidates): from the click to the
//   frame after the table holds every model (the figures with their bootstrap, the table, both charts).
//   Target <= 200 ms; the median of five runs (a fresh page each), with its range.
// - export: the HTML file of one board of 8 models x 20 prompts, every cell's picture a 2K image the
//   sandbox made (five styles), resized and inlined as the export does. Target < 15 MB.

const PAGE_ROOT = fileURLToPath(new URL('./report-page/', import.meta.url));
// BENCH_REPORT_BOARDS, BENCH_REPORT_IMAGES and BENCH_REPORT_RENDER_RUNS make the bench smoke's small run.
const BOARDS = Number(process.env.BENCH_REPORT_BOARDS ?? 50);
const MEMBERS = 10;
/** Cells of the exported board (8 x 20), each showing one of IMAGES sandbox images in turn. */
const PICTURES = 160;
const IMAGES = Number(process.env.BENCH_REPORT_IMAGES ?? PICTURES);
const RENDER_RUNS = Number(process.env.BENCH_REPORT_RENDER_RUNS ?? Math.max(RUNS, 5));

export async function modelReportAtScale(browser: Browser, ports: Ports): Promise<Record<string, Figure>> {
  const page = await servePage(PAGE_ROOT, 'report-bench-');
  const open = async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page.url);
    await tab.locator('body[data-ready="true"]').waitFor();
    return { context, tab };
  };
  try {
    const renders: Array<{ ms: number; figuresMs: number; load: number }> = [];
    let shape = '';
    for (let run = 0; run < RENDER_RUNS; run++) {
      const { context, tab } = await open();
      try {
        const result = await tab.evaluate(([b, m]) => window.reportBench.render(b, m), [
          BOARDS,
          MEMBERS,
        ] as const);
        if (result.rows !== 8) throw new Error(`The table showed ${result.rows} models, not 8.`);
        shape = `${result.boards} boards, ${result.tasks} tasks, ${result.votes} votes`;
        const figuresMs = await tab.evaluate(([b, m]) => window.reportBench.compute(b, m), [
          BOARDS,
          MEMBERS,
        ] as const);
        renders.push({ ms: result.ms, figuresMs, load: loadAverage() });
      } finally {
        await context.close();
      }
    }
    const urls = (await sandboxImages(ports, IMAGES)).map((m) => m.url);
    const exports: Array<{ bytes: number; ms: number; load: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      const { context, tab } = await open();
      try {
        const result = await tab.evaluate((u) => window.reportBench.exportBytes(u), urls);
        if (result.pictures !== PICTURES)
          throw new Error(`${result.pictures} of ${PICTURES} pictures in the exported report.`);
        exports.push({ bytes: result.bytes, ms: result.ms, load: loadAverage() });
      } finally {
        await context.close();
      }
    }
    const render = spread(renders.map((r) => r.ms));
    const figures = spread(renders.map((r) => r.figuresMs));
    const size = spread(exports.map((e) => e.bytes / 1e6));
    const sizeExact = exports.map((e) => (e.bytes / 1e6).toFixed(2));
    const exportMs = spread(exports.map((e) => e.ms));
    return {
      categoryRenderMs: {
        value: render.value,
        unit: 'ms',
        target: '<= 200',
        ok: render.value <= 200,
        note: `${shape} (10 members, every row), click to the frame after the table; median of ${RENDER_RUNS}, range ${render.range}; the figures alone (modelReport, after it) ${figures.value} ms (${figures.range}); ${loadRange(renders.map((r) => r.load))}`,
      },
      exportMb: {
        value: Number(sizeExact.sort()[Math.floor(sizeExact.length / 2)]),
        unit: 'MB',
        target: '< 15',
        ok: Math.max(...exports.map((e) => e.bytes)) < 15e6,
        note: `one board of 8 models x 20 prompts, ${PICTURES} cells of ${IMAGES} sandbox 2K images inlined (512 px JPEG); median of ${RUNS}, runs ${sizeExact.join(', ')} MB (${size.range} rounded); built in ${exportMs.value} ms (range ${exportMs.range}); ${loadRange(exports.map((e) => e.load))}`,
      },
    };
  } finally {
    await page.close();
  }
}
