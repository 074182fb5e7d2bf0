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
  const body = { interfaceId: 'pixelmoss-pop', versionId: 'pixelmoss-pop-1', params: { prompt: 'bench' } };
  const submit = (n: string) =>
    fetch(`${ports.sandbox}/v1/tasks`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `bench-${n}-${Date.now()}` },
      body: JSON.stringify(body),
    });

  // Warm-up: the service's estimate is the median of recent runs of the model (spec 2). Run on the
  // team's other key, so its polls here count in no rate window of the key the studio uses.
  const warmAuth = { Authorization: `Bearer ${await keyOf(ports, 'team2')}` };
  const warm = await Promise.all(
    [0, 1, 2].map(
      async (i) =>
        (
          (await (
            await fetch(`${ports.sandbox}/v1/tasks`, {
              method: 'POST',
              headers: {
                ...warmAuth,
                'Content-Type': 'application/json',
                'Idempotency-Key': `warm-${i}-${Date.now()}`,
              },
              body: JSON.stringify(body),
            })
          ).json()) as { taskId: string }
        ).taskId,
    ),
  );
  for (const id of warm) {
    for (;;) {
      const t = (await (await fetch(`${ports.sandbox}/v1/tasks/${id}`, { headers: warmAuth })).json()) as {
        status: string;
      };
      if (t.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const quote = (await (
    await fetch(`${ports.sandbox}/v1/quote`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as { estimatedSeconds: number | null; credits: number };

  const page = await browser.newPage();
  await connect(page, ports, 'team');
  const start = (await requests(ports)).length;
  const handOver = async (batch: Array<{ taskId: string; createdAt: string; status: string }>) => {
    if (batch.length === 0) return;
    const file = {
      format: 'media-studio-history',
      version: 1,
      exportedAt: new Date().toISOString(),
      tasks: batch.map((t) => ({
        taskId: t.taskId,
        connectionId: 'imported',
        request: body,
        meta: {
          title: 'Pop Diffusion',
          subtitle: 'Pop 1',
          kind: 'model',
          mediaType: 'image',
          category: 'image/default',
          modelId: body.interfaceId,
          versionId: body.versionId,
          estimatedSeconds: quote.estimatedSeconds,
          quotedCredits: quote.credits,
        },
        status: t.status,
        outputs: [],
        error: null,
        creditsCharged: null,
        createdAt: Date.parse(t.createdAt),
        completedAt: null,
      })),
    };
    await page.getByLabel('Import history file').setInputFiles({
      name: 'bench.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file)),
    });
  };

  let created = 0;
  let batch: Array<{ taskId: string; createdAt: string; status: string }> = [];
  while (created < count) {
    const res = await submit(String(created));
    if (res.status === 429) {
      // POST /tasks allows 60 a minute: hand what exists to the studio, then wait out the window.
      await handOver(batch);
      batch = [];
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 5) * 1000));
      continue;
    }
    const task = (await res.json()) as { taskId: string; status: string; createdAt?: string };
    batch.push({
      taskId: task.taskId,
      createdAt: task.createdAt ?? new Date().toISOString(),
      status: task.status,
    });
    created += 1;
  }
  await handOver(batch);
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
  const created = (await (
    await fetch(`${ports.sandbox}/v1/tasks`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `bench-h-${Date.now()}`,
      },
      body: JSON.stringify({
        interfaceId: 'pixelmoss-pop',
        versionId: 'pixelmoss-pop-1',
        params: { prompt: 'bench' },
      }),
    })
  ).json()) as { taskId: string };
  let output = '';
  for (let i = 0; i < 120 && !output; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const task = (await (
      await fetch(`${ports.sandbox}/v1/tasks/${created.taskId}`, {
        headers: { Authorization: `Bearer ${key}` },
      })
    ).json()) as { status: string; outputs: Array<{ url: string }> };
    if (task.status === 'succeeded') output = task.outputs[0]!.url;
  }
  const now = Date.now();
  const file = {
    format: 'media-studio-history',
    version: 1,
    exportedAt: new Date(now).toISOString(),
    tasks: Array.from({ length: count }, (_, i) => ({
      taskId: `task_bench_${i}`,
      connectionId: 'imported',
      request: {
        interfaceId: 'pixelmoss-pop',
        versionId: 'pixelmoss-pop-1',
        params: { prompt: `bench prompt number ${i}` },
      },
      meta: {
        title: 'Pop Diffusion',
        subtitle: 'Pop 1',
        kind: 'model',
        mediaType: 'image',
        category: 'image/default',
        estimatedSeconds: 4,
        quotedCredits: 2,
      },
      status: 'succeeded',
      outputs: [{ url: output }],
      error: null,
      creditsCharged: 2,
      createdAt: now - i * 60_000,
      completedAt: now - i * 60_000 + 4_000,
    })),
  };

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await connect(page, ports, 'personal');
  await page.getByLabel('Import history file').setInputFiles({
    name: 'history.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file)),
  });
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
    jsHeapUsed: { value: Math.round(heap), unit: 'MB', target: 'reported', ok: true },
  };
}
