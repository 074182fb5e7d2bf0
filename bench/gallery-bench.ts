import type { Browser } from '@playwright/test';
import type { Figure } from './results-file';
import { POP, popMeta } from '../e2e/pop-model';
import { jsHeapUsedMb, longestTaskWhileScrolling, recordLongTasks } from './page-metrics';
import {
  connect,
  historyFile,
  importHistoryFile,
  keyOf,
  submitTask,
  succeeded,
  type Ports,
} from './studio-bench';

// The gallery at scale (issue 12, Measured): 5,000 tasks with 4 outputs each (20,000 tiles) imported as
// a history file, then a reload straight into the gallery: the time from navigation to the first tiles
// with their images, the longest main-thread task while scrolling through them, and the JS heap.
// Targets: first tiles under 1 s, no task over 50 ms.

/** `count` real image outputs from the sandbox (Pop tasks run through its API, not the studio). */
async function realOutputs(ports: Ports, key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await submitTask(ports, key, `gallery bench ${i}`);
    ids.push(((await res.json()) as { taskId: string }).taskId);
  }
  const urls: string[] = [];
  for (const id of ids) urls.push(await succeeded(ports, key, id));
  return urls;
}

/** A history export (the studio's own format) of `count` tasks with `perTask` outputs each. */
export function galleryHistoryFile(urls: string[], count: number, perTask: number, now = Date.now()) {
  return historyFile(
    Array.from({ length: count }, (_, i) => ({
      taskId: `task_gallery_bench_${i}`,
      request: { ...POP, params: { prompt: `gallery bench prompt number ${i}` } },
      meta: popMeta({ estimatedSeconds: 4, credits: 2 }),
      status: 'succeeded',
      outputs: Array.from({ length: perTask }, (_, j) => ({ url: urls[(i * perTask + j) % urls.length]! })),
      error: null,
      creditsCharged: 2,
      // About 25 tasks an hour: 5,000 tasks span some 8 days, so the gallery has day headings.
      createdAt: now - i * 144_000,
      completedAt: now - i * 144_000 + 4_000,
    })),
    now,
  );
}

export async function galleryAtScale(
  browser: Browser,
  ports: Ports,
  count = 5000,
  perTask = 4,
): Promise<Record<string, Figure>> {
  await fetch(`${ports.sandbox}/__sandbox/reset`, { method: 'POST' });
  const key = await keyOf(ports, 'personal');
  // A few real outputs, reused: the browser loads and caches them as it would real results.
  const urls = await realOutputs(ports, key, 8);
  const file = galleryHistoryFile(urls, count, perTask);
  const outputs = count * perTask;

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await connect(page, ports, 'personal');
  await importHistoryFile(page, file);
  await page.getByText(/^Imported /).waitFor({ timeout: 180_000 });
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await page
    .getByTestId('gallery-count')
    .filter({ hasText: outputs.toLocaleString('en-US') })
    .waitFor();

  // Reload into the gallery (its URL): the key stays in the tab; history and judgements from IndexedDB.
  await recordLongTasks(page);
  const t0 = Date.now();
  await page.reload();
  // The first tiles: shown, with their images decoded.
  await page.waitForFunction(
    () => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="gallery-tile"] img')];
      return imgs.length >= 4 && imgs.slice(0, 4).every((img) => img.complete && img.naturalWidth > 0);
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  const firstTilesMs = Date.now() - t0;

  // Scrolling once start-up has settled.
  const scroll = page.getByTestId('gallery-scroll');
  const { longest, scrolledPx } = await longestTaskWhileScrolling(page, scroll, 1200, 'gallery');
  const tilesInDom = await page.getByTestId('gallery-tile').count();
  const heap = await jsHeapUsedMb(context, page);
  await context.close();
  return {
    galleryFirstTilesAfterReload: {
      value: firstTilesMs,
      unit: 'ms',
      target: '< 1000',
      ok: firstTilesMs < 1000,
      note: `${count.toLocaleString('en-US')} tasks, ${outputs.toLocaleString('en-US')} outputs`,
    },
    galleryLongestTaskWhileScrolling: {
      value: Math.round(longest),
      unit: 'ms',
      target: '<= 50',
      ok: longest <= 50,
      note: `${Math.round(scrolledPx).toLocaleString('en-US')} px scrolled by wheel, ${tilesInDom} tiles in the DOM`,
    },
    galleryJsHeapUsed: {
      value: Math.round(heap),
      unit: 'MB',
      target: 'reported',
      ok: true,
      note: 'after a GC',
    },
  };
}
