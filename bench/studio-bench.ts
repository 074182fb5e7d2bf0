import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM } from '../scripts/chromium';
import type { Figure } from './results-file';

// Benchmarks that drive the built studio in Chromium against its sandbox (issue 7): quote requests
// while typing, and polling efficiency with 100 tasks in flight. Figures, not pass/fail tests.

export interface Ports {
  studio: string;
  sandbox: string;
}

interface Logged {
  method: string;
  path: string;
  status: number;
  keyName?: string;
}

export async function launch(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}

const requests = async (ports: Ports): Promise<Logged[]> =>
  (await (await fetch(`${ports.sandbox}/__sandbox/requests`)).json()) as Logged[];
const reset = async (ports: Ports) => {
  await fetch(`${ports.sandbox}/__sandbox/reset`, { method: 'POST' });
};
export async function keyOf(ports: Ports, name: string): Promise<string> {
  const keys = (await (await fetch(`${ports.sandbox}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  return keys.find((k) => k.name === name)!.key;
}

async function connect(page: Page, ports: Ports, keyName: string) {
  await page.goto(ports.studio);
  await page.getByLabel('API key', { exact: true }).fill(await keyOf(ports, keyName));
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('tab', { name: 'Models' }).waitFor();
}

/** The model every bench task runs: cheap and fast. */
const POP = { interfaceId: 'pixelmoss-pop', versionId: 'pixelmoss-pop-1' };
const popRequest = (prompt: string) => ({ ...POP, params: { prompt } });

function submitTask(ports: Ports, key: string, prompt: string): Promise<Response> {
  return fetch(`${ports.sandbox}/v1/tasks`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': `bench-${Date.now()}-${Math.random()}`,
    },
    body: JSON.stringify(popRequest(prompt)),
  });
}

/** Polls the sandbox (not through the studio) until the task has succeeded; answers its output URL. */
async function succeeded(ports: Ports, key: string, taskId: string): Promise<string> {
  for (let i = 0; i < 240; i++) {
    const task = (await (
      await fetch(`${ports.sandbox}/v1/tasks/${taskId}`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as { status: string; outputs: Array<{ url: string }> };
    if (task.status === 'succeeded') return task.outputs[0]!.url;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Task ${taskId} did not succeed in 2 minutes.`);
}

interface BenchTask {
  taskId: string;
  prompt: string;
  status: string;
  createdAt: number;
  outputs: Array<{ url: string }>;
  creditsCharged: number | null;
  completedAt: number | null;
}

/** Hands tasks to the studio as an imported history file (the studio's own export format). */
async function importHistory(
  page: Page,
  tasks: BenchTask[],
  quote: { estimatedSeconds: number | null; credits: number },
): Promise<void> {
  const file = {
    format: 'media-studio-history',
    version: 1,
    exportedAt: new Date().toISOString(),
    tasks: tasks.map(({ prompt, ...t }) => ({
      ...t,
      connectionId: 'imported',
      request: popRequest(prompt),
      meta: {
        title: 'Pop Diffusion',
        subtitle: 'Pop 1',
        kind: 'model',
        mediaType: 'image',
        category: 'image/default',
        modelId: POP.interfaceId,
        versionId: POP.versionId,
        estimatedSeconds: quote.estimatedSeconds,
        quotedCredits: quote.credits,
      },
      error: null,
    })),
  };
  await page.getByLabel('Import history file').setInputFiles({
    name: 'history.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file)),
  });
}

/** Quote requests sent while a 60-character prompt is typed at 8 keys a second. Target: at most 3. */
export async function quoteTyping(browser: Browser, ports: Ports): Promise<Record<string, Figure>> {
  await reset(ports);
  const page = await browser.newPage();
  await connect(page, ports, 'personal');
  await page
    .getByRole('button', { name: /Lumen Canvas/ })
    .first()
    .click();
  const prompt = page.getByRole('textbox', { name: 'Prompt', exact: true });
  await prompt.waitFor();
  // Settle the quote of the empty form (the required prompt makes it invalid: no quote at all).
  await page.waitForTimeout(1500);
  const before = (await requests(ports)).filter((r) => r.path.endsWith('/quote')).length;
  const text = 'A red fox curled up asleep in fresh snow under pine trees, dawn'.slice(0, 60);
  await prompt.pressSequentially(text, { delay: 125 });
  await page.waitForTimeout(2000);
  const sent = (await requests(ports)).filter((r) => r.path.endsWith('/quote')).length - before;
  await page.close();
  return {
    quoteRequestsWhileTyping: {
      value: sent,
      unit: 'requests',
      target: '<= 3',
      ok: sent <= 3,
      note: '60 chars at 8 keys/s',
    },
  };
}

/**
 * 100 tasks in flight: created through the API on the team key (pool of 5, so most of them wait in the
 * queue), handed to the studio batch by batch as an imported history the moment they exist, then
 * followed by the studio's poller to the end. POST /tasks allows 60 a minute, so they come in two
 * batches. A few tasks run first so the quote has an estimatedSeconds (the target is for a known
 * estimate). Counts GET /tasks/{id} per task and the 429s the studio received. Targets: 0 429s, under
 * 3 polls per task.
 */
export async function pollingEfficiency(
  browser: Browser,
  ports: Ports,
  count = 100,
): Promise<Record<string, Figure>> {
  await reset(ports);
  const key = await keyOf(ports, 'team');
  const auth = { Authorization: `Bearer ${key}` };

  // Warm-up: the service's estimate is the median of recent runs of the model (spec 2). Run on the
  // team's other key, so its polls here count in no rate window of the key the studio uses.
  const warmKey = await keyOf(ports, 'team2');
  const warm = await Promise.all(
    [0, 1, 2].map(
      async () => ((await (await submitTask(ports, warmKey, 'warm')).json()) as { taskId: string }).taskId,
    ),
  );
  for (const id of warm) await succeeded(ports, warmKey, id);
  const quote = (await (
    await fetch(`${ports.sandbox}/v1/quote`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(popRequest('bench')),
    })
  ).json()) as { estimatedSeconds: number | null; credits: number };

  const page = await browser.newPage();
  await connect(page, ports, 'team');
  const start = (await requests(ports)).length;

  let created = 0;
  let batch: BenchTask[] = [];
  const handOver = async () => {
    if (batch.length > 0) await importHistory(page, batch, quote);
    batch = [];
  };
  while (created < count) {
    const res = await submitTask(ports, key, 'bench');
    if (res.status === 429) {
      // POST /tasks allows 60 a minute: hand what exists to the studio, then wait out the window.
      await handOver();
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 5) * 1000));
      continue;
    }
    const task = (await res.json()) as { taskId: string; status: string; createdAt?: string };
    batch.push({
      taskId: task.taskId,
      prompt: 'bench',
      status: task.status,
      createdAt: task.createdAt ? Date.parse(task.createdAt) : Date.now(),
      outputs: [],
      creditsCharged: null,
      completedAt: null,
    });
    created += 1;
  }
  await handOver();
  const started = Date.now();
  // Until the history (IndexedDB, what the cards show) has every task finished.
  for (;;) {
    const open = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const req = indexedDB.open('media-studio');
          req.onsuccess = () => {
            const all = req.result.transaction('tasks').objectStore('tasks').getAll();
            all.onsuccess = () => {
              const list = all.result as Array<{ status: string }>;
              req.result.close();
              resolve(
                list.length === 0
                  ? -1
                  : list.filter((t) => t.status === 'queued' || t.status === 'running').length,
              );
            };
          };
        }),
    );
    if (open === 0) break;
    if (Date.now() - started > 15 * 60_000) throw new Error('The tasks did not finish in 15 minutes.');
    await page.waitForTimeout(1000);
  }
  const log = (await requests(ports)).slice(start);
  const polls = log.filter((r) => r.method === 'GET' && /\/v1\/tasks\/[^/]+$/.test(r.path));
  // The studio's 429s: the bench's own POST /tasks meet the 60-a-minute limit on purpose.
  const limited = log.filter(
    (r) => r.status === 429 && !(r.method === 'POST' && r.path === '/v1/tasks'),
  ).length;
  await page.close();
  const perTask = Math.round((polls.length / count) * 100) / 100;
  return {
    pollsPerFinishedTask: {
      value: perTask,
      unit: 'polls',
      target: '< 3',
      ok: perTask < 3,
      note: `${polls.length} GET /tasks/{id} for ${count} tasks, estimate ${quote.estimatedSeconds ?? '?'} s, pool of 5, all done ${Math.round((Date.now() - started) / 1000)} s after the last hand-over`,
    },
    rateLimitedResponses: { value: limited, unit: '429s', target: '0', ok: limited === 0 },
  };
}

/**
 * History at scale: 5,000 finished tasks imported, then a reload: the time from navigation until the
 * history lists them and answers, the longest main-thread task while scrolling through them, and the
 * JS heap. Targets: under 1 s, no task over 50 ms.
 */
export async function historyAtScale(
  browser: Browser,
  ports: Ports,
  count = 5000,
): Promise<Record<string, Figure>> {
  await reset(ports);
  const key = await keyOf(ports, 'personal');
  // One real output, shown by every card (a CDN URL the browser can load and cache).
  const created = (await (await submitTask(ports, key, 'bench')).json()) as { taskId: string };
  const output = await succeeded(ports, key, created.taskId);
  const now = Date.now();
  const tasks: BenchTask[] = Array.from({ length: count }, (_, i) => ({
    taskId: `task_bench_${i}`,
    prompt: `bench prompt number ${i}`,
    status: 'succeeded',
    outputs: [{ url: output }],
    creditsCharged: 2,
    createdAt: now - i * 60_000,
    completedAt: now - i * 60_000 + 4_000,
  }));

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await connect(page, ports, 'personal');
  await importHistory(page, tasks, { estimatedSeconds: 4, credits: 2 });
  const countLabel = page.getByTestId('history-count');
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="history-count"]')?.textContent?.includes(n),
    count.toLocaleString('en-US'),
    { timeout: 120_000 },
  );

  // Reload: the key stays in the tab; the history comes back from IndexedDB.
  await page.addInitScript(() => {
    (window as unknown as { __longest: number }).__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        (window as unknown as { __longest: number }).__longest = Math.max(
          (window as unknown as { __longest: number }).__longest,
          e.duration,
        );
    }).observe({ type: 'longtask', buffered: true });
  });
  const t0 = Date.now();
  await page.reload();
  await countLabel.filter({ hasText: count.toLocaleString('en-US') }).waitFor({ timeout: 60_000 });
  await page.getByTestId('history-scroll').getByRole('button').first().waitFor();
  const interactiveMs = Date.now() - t0;

  // Scrolling through the list, once start-up has settled (catalog, first images): the longest task from
  // here on. Long tasks are the ones over 50 ms; 0 means none.
  await page.waitForTimeout(2000);
  await page.evaluate(() => ((window as unknown as { __longest: number }).__longest = 0));
  const scroller = page.getByTestId('history-scroll');
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(500);
  const longest = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  const scrolledPx = await scroller.evaluate((el) => el.scrollTop);
  if (scrolledPx < 10_000) throw new Error(`The history did not scroll (scrollTop ${scrolledPx}).`);
  const cdp = await context.newCDPSession(page);
  // What the page keeps, not what it has yet to collect.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const heap = (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / (1024 * 1024);
  await context.close();
  return {
    historyInteractiveAfterReload: {
      value: interactiveMs,
      unit: 'ms',
      target: '< 1000',
      ok: interactiveMs < 1000,
      note: `${count} tasks`,
    },
    longestTaskWhileScrolling: {
      value: Math.round(longest),
      unit: 'ms',
      target: '<= 50',
      ok: longest <= 50,
      note: `${Math.round(scrolledPx).toLocaleString('en-US')} px scrolled by wheel`,
    },
    jsHeapUsed: { value: Math.round(heap), unit: 'MB', target: 'reported', ok: true, note: 'after a GC' },
  };
}
