import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { servePage } from './bench-page';
import type { Figure } from './results-file';
import { loadAverage, loadRange, RUNS, spread } from './three-runs';
import { keyOf, type Ports } from './studio-bench';

// "Download selected" at the size of a real selection (docs/benchmarks.md "zip"): a ZIP of 200 sandbox
// images, made in Chromium by the studio's own modules (bench/zip-page, built here with Vite: the ZIP writer
// alone, without the gallery around it, and no test entry ships in the studio). Measured: the time from start
// to the finished download, and the page's peak heap growth while it runs, sampled through CDP: V8's heap
// plus ArrayBuffer backing stores, where fetched bytes would pile up if they were held. Target: the heap
// grows by less than the ZIP's size (the files are streamed to disk one at a time, never all held).

const PAGE_ROOT = fileURLToPath(new URL('./zip-page/', import.meta.url));
/** 2K images (2048 px) in five styles, as a creator's selection would be: the sandbox renders them at
 * about 140 KB each (27.2 MB for 200, bench/results.json). */
const MODEL = { interfaceId: 'lumen-canvas', versionId: 'lumen-canvas-v2' };
const STYLES = ['photographic', 'watercolor', 'anime', 'oil-painting', 'pixel-art'];
const paramsOf = (i: number) => ({
  prompt: `zip bench image ${i}, a lighthouse at dusk`,
  resolution: '2K',
  style: STYLES[i % STYLES.length]!,
});

async function sandboxCall(ports: Ports, path: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await fetch(`${ports.sandbox}${path}`, init);
    if (res.status !== 429) return res;
    await fetch(`${ports.sandbox}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advanceMs: 61_000 }),
    });
  }
  throw new Error(`${path} stayed rate-limited.`);
}

interface MadeTask {
  taskId: string;
  url: string;
  params: ReturnType<typeof paramsOf>;
}

/** `count` distinct images made by the sandbox, through its API (the clock moved instead of waited). */
export async function sandboxImages(ports: Ports, count: number): Promise<MadeTask[]> {
  await fetch(`${ports.sandbox}/__sandbox/reset`, { method: 'POST' });
  const auth = { Authorization: `Bearer ${await keyOf(ports, 'personal')}` };
  const created: Array<{ taskId: string; params: ReturnType<typeof paramsOf> }> = [];
  for (let i = 0; i < count; i++) {
    const params = paramsOf(i);
    const res = await sandboxCall(ports, '/v1/tasks', {
      method: 'POST',
      headers: {
        ...auth,
        'Content-Type': 'application/json',
        'Idempotency-Key': `zip-bench-${i}-${Date.now()}`,
      },
      body: JSON.stringify({ ...MODEL, params }),
    });
    if (!res.ok) throw new Error(`POST /tasks answered ${res.status}: ${await res.text()}`);
    created.push({ taskId: ((await res.json()) as { taskId: string }).taskId, params });
  }
  // Every task finished: an hour of sandbox time is far more than 200 runs need on its slots.
  await fetch(`${ports.sandbox}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advanceMs: 3_600_000 }),
  });
  const made: MadeTask[] = [];
  for (const { taskId, params } of created) {
    const res = await sandboxCall(ports, `/v1/tasks/${taskId}`, { headers: auth });
    const task = (await res.json()) as { status: string; outputs: Array<{ url: string }> };
    if (task.status !== 'succeeded' || !task.outputs[0]) throw new Error(`Task ${taskId} is ${task.status}.`);
    made.push({ taskId, params, url: task.outputs[0].url });
  }
  // The images are rendered on first request: make them all now, so the ZIP's time is not the renderer's.
  for (const { url } of made) await (await fetch(url)).arrayBuffer();
  return made;
}

/** The history entries the gallery would hold for them. */
function historyEntries(made: MadeTask[]): unknown[] {
  const now = Date.now();
  return made.map(({ taskId, url, params }, i) => ({
    taskId,
    connectionId: 'bench',
    request: { ...MODEL, params },
    meta: {
      title: 'Lumen Canvas',
      subtitle: 'v2',
      kind: 'model',
      mediaType: 'image',
      modelId: MODEL.interfaceId,
    },
    status: 'succeeded',
    outputs: [{ url }],
    creditsCharged: 8,
    createdAt: now - i * 1000,
    completedAt: now - i * 1000 + 4000,
  }));
}

export async function zipOfSandboxImages(
  browser: Browser,
  ports: Ports,
  count = 200,
): Promise<Record<string, Figure>> {
  const made = await sandboxImages(ports, count);
  const page = await servePage(PAGE_ROOT, 'zip-bench-');
  const runs: Array<{ ms: number; bytes: number; growth: number; load: number; sink: string }> = [];
  let buffersSeen = true;
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ acceptDownloads: true });
      try {
        const tab = await context.newPage();
        await tab.goto(page.url);
        await tab.locator('body[data-ready="true"]').waitFor();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('HeapProfiler.collectGarbage');
        type Usage = { usedSize: number; backingStorageSize?: number };
        // backingStorageSize (ArrayBuffers) is in Chromium 122 and later; without it only V8's heap is seen.
        const heapNow = async () => {
          const usage = (await cdp.send('Runtime.getHeapUsage')) as Usage;
          if (usage.backingStorageSize === undefined) buffersSeen = false;
          return usage.usedSize + (usage.backingStorageSize ?? 0);
        };
        const baseline = await heapNow();
        let peak = baseline;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            peak = Math.max(peak, await heapNow());
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
        const download = tab.waitForEvent('download', { timeout: 300_000 });
        const result = await tab.evaluate((tasks) => window.zipBench(tasks), historyEntries(made));
        sampling = false;
        await sampler;
        const saved = await (await download).path();
        const downloaded = statSync(saved).size;
        if (downloaded !== result.bytes)
          throw new Error(`Downloaded ${downloaded} bytes, the ZIP was ${result.bytes}.`);
        if (result.saved !== count) throw new Error(`${result.saved} of ${count} images in the ZIP.`);
        runs.push({
          ms: result.ms,
          bytes: result.bytes,
          growth: peak - baseline,
          load: loadAverage(),
          sink: result.sink,
        });
        console.log(
          `  run ${run + 1}: ZIP of ${count} in ${result.ms} ms, heap growth ${Math.round((peak - baseline) / 1e5) / 10} MB`,
        );
      } finally {
        await context.close();
      }
    }
  } finally {
    await page.close();
  }
  const mb = (n: number) => Math.round((n / 1e6) * 10) / 10;
  const bytes = runs[0]!.bytes;
  const time = spread(runs.map((r) => r.ms));
  const growth = spread(runs.map((r) => r.growth));
  const of = `median of ${runs.length} runs`;
  const loads = loadRange(runs.map((r) => r.load));
  return {
    zipTime: {
      value: time.value,
      unit: 'ms',
      target: 'reported',
      ok: true,
      note: `${count} sandbox images, ${mb(bytes)} MB ZIP, written to ${runs[0]!.sink === 'private-file' ? 'the private file system' : 'a chosen file'} then downloaded; ${of}, range ${time.range} ms; ${loads}`,
    },
    zipPeakHeapGrowth: {
      value: mb(growth.value),
      unit: 'MB',
      target: `< ${mb(bytes)} (the ZIP)`,
      ok: growth.value < bytes,
      note: `${buffersSeen ? 'V8 heap + ArrayBuffer backing stores' : 'V8 heap only (no ArrayBuffer figure in this Chromium)'}, peak over the run (garbage not yet collected included) minus before it; ${of}, range ${mb(Math.min(...runs.map((r) => r.growth)))} to ${mb(Math.max(...runs.map((r) => r.growth)))} MB`,
    },
  };
}
