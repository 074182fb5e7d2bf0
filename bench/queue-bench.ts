import type { Browser, Page } from '@playwright/test';
import { loadavg } from 'node:os';
import type { Figure } from './results-file';
import {
  measure,
  openPopForm,
  requests,
  reset,
  waitAllFinished,
  warmUp,
  type LoggedAt,
  type Ports,
  type StudioTask,
} from './studio-bench';
import { median, RUNS, spread } from './three-runs';

// "Your queue" (docs/queue.md) against sending everything at once: the queue must not slow a run down
// (it releases a task just before the pool frees a place), nor hear of finished tasks later; and a long
// queue must stay responsive while it is reordered and pruned. The machine may be shared: each figure
// notes the one-minute load average of its runs.

const TASKS = 50;
const HELD = Number(process.env.BENCH_QUEUE_HELD ?? 1_000);
/** The team key's pool in the sandbox (sandbox/src/core/keys.ts). */
const POOL = 5;

const load = () => Math.round(loadavg()[0]! * 100) / 100;
const queueRegion = (page: Page) => page.getByRole('region', { name: 'Queue', exact: true });

/** The sandbox's run of a task (SANDBOX_TASK_MS, as run.ts starts it for the queue) and its dispatch (a quarter). */
const RUN_MS = 5_000;
const DISPATCH_MS = RUN_MS / 4;

/**
 * Where the time went: the pool replayed from the tasks' creation and finish (FIFO over `pool` slots), each
 * task's slot idle between the slot freeing and the task starting because it was created too late. The
 * tasks of the first wave found the slots free (no slot freed before them), so they count only from the
 * second wave. `late` is each later task's creation against the last moment that keeps its slot busy (the
 * slot's free time less the dispatch): positive is late.
 */
export function slotIdle(tasks: readonly StudioTask[], pool: number): { idleMs: number; late: number[] } {
  const slots = new Array<number>(pool).fill(-Infinity);
  let idleMs = 0;
  const late: number[] = [];
  for (const t of [...tasks].sort((a, b) => a.createdAt - b.createdAt)) {
    if (t.completedAt === null) continue;
    const slot = slots.indexOf(Math.min(...slots));
    const free = slots[slot]!;
    const start = t.completedAt - RUN_MS;
    if (free > -Infinity) {
      idleMs += Math.max(0, start - free);
      late.push(t.createdAt + DISPATCH_MS - free);
    }
    slots[slot] = t.completedAt;
  }
  return { idleMs, late };
}

interface MakespanRun {
  /** From the first click until the last task finished at the service, ms. */
  lastFinishedMs: number;
  /** Slot time left idle by tasks created too late (slotIdle), ms. */
  idleMs: number;
  /** Median of how late each task after the first wave was created for its slot, ms. */
  lateMs: number;
  late: number[];
  /** Median detection delay (result seen minus finished), ms. */
  delayMs: number;
  load: number;
}

/** `TASKS` Generate clicks on the team key (a pool of 5), through the queue or all sent at once. */
async function makespanRun(browser: Browser, ports: Ports, atOnce: boolean): Promise<MakespanRun> {
  await reset(ports);
  await warmUp(ports);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openPopForm(page, ports);
  const sendAtOnce = page.getByRole('checkbox', { name: 'Send every task at once (no queue)' });
  await queueRegion(page).getByText('Queue settings').click();
  await sendAtOnce.setChecked(atOnce);
  const from = (await requests(ports)).length;
  const generate = page.getByRole('button', { name: 'Generate', exact: true });
  const started = Date.now();
  for (let i = 0; i < TASKS; i++) await generate.click({ timeout: 120_000 });
  const tasks = await waitAllFinished(page, TASKS, 10 * 60_000);
  const lastFinished = Math.max(...tasks.map((t) => t.completedAt ?? 0));
  const log = ((await requests(ports)) as LoggedAt[]).slice(from);
  const { delays } = measure(log, tasks, 'team');
  await page.close();
  const idle = slotIdle(tasks, POOL);
  return {
    lastFinishedMs: lastFinished - started,
    idleMs: idle.idleMs,
    lateMs: median(idle.late),
    late: idle.late,
    delayMs: median(delays),
    load: load(),
  };
}

/** The queue against all at once: time until the last of 50 finishes (within 5 %), and the delay. */
export async function queueMakespan(browser: Browser, ports: Ports): Promise<Record<string, Figure>> {
  const runs: Record<'queue' | 'atOnce', MakespanRun[]> = { queue: [], atOnce: [] };
  for (let i = 0; i < RUNS; i++) {
    // Alternated, so a change in the machine's load falls on both alike.
    for (const mode of ['atOnce', 'queue'] as const) {
      const run = await makespanRun(browser, ports, mode === 'atOnce');
      console.log(
        `    ${mode} run ${i + 1}: last finished after ${(run.lastFinishedMs / 1000).toFixed(1)} s, delay median ${(run.delayMs / 1000).toFixed(2)} s, slots idle ${(run.idleMs / 1000).toFixed(1)} s, created ${Math.round(run.lateMs)} ms late (median), load ${run.load}`,
      );
      if (process.env.BENCH_QUEUE_PROFILE)
        console.log(
          `      created late for its slot (ms): ${run.late.map((x) => Math.round(x / 100) * 100).join(' ')}`,
        );
      runs[mode].push(run);
    }
  }
  const q = spread(runs.queue.map((r) => r.lastFinishedMs));
  const a = spread(runs.atOnce.map((r) => r.lastFinishedMs));
  const qd = spread(runs.queue.map((r) => r.delayMs));
  const ad = spread(runs.atOnce.map((r) => r.delayMs));
  const qi = spread(runs.queue.map((r) => r.idleMs));
  const loads = (rs: MakespanRun[]) => rs.map((r) => r.load).join(', ');
  const note = (rs: MakespanRun[], range: string) => `median of ${RUNS}, range ${range}, load ${loads(rs)}`;
  const slower = Math.round((q.value / a.value - 1) * 1000) / 10;
  return {
    lastFinishedQueue: {
      value: q.value,
      unit: 'ms',
      target: 'reported',
      ok: null,
      note: `${TASKS} tasks of 5 s, team pool of 5, through the queue; ${note(runs.queue, q.range)}`,
    },
    lastFinishedAtOnce: {
      value: a.value,
      unit: 'ms',
      target: 'reported',
      ok: null,
      note: `the same, all sent at once; ${note(runs.atOnce, a.range)}`,
    },
    queueSlowerBy: {
      value: slower,
      unit: '%',
      target: '<= 5 %',
      ok: slower <= 5,
      note: 'time until the last finishes, queue against all at once (medians)',
    },
    slotsIdleQueue: {
      value: qi.value,
      unit: 'ms',
      target: 'reported',
      ok: null,
      note: `slot time left idle by tasks the queue sent after their slot could have started them (pool replayed from the tasks' creation and finish); ${note(runs.queue, qi.range)}`,
    },
    delayQueue: {
      value: qd.value,
      unit: 'ms',
      target: 'reported',
      ok: null,
      note: `detection delay (seen minus finished) through the queue; ${note(runs.queue, qd.range)}`,
    },
    delayAtOnce: {
      value: ad.value,
      unit: 'ms',
      target: 'reported',
      ok: null,
      note: `detection delay all at once; ${note(runs.atOnce, ad.range)}`,
    },
    delayChange: {
      value: qd.value - ad.value,
      unit: 'ms',
      target: '<= 500 ms',
      ok: qd.value - ad.value <= 500,
      note: 'median detection delay, queue minus all at once (unchanged within half a second)',
    },
  };
}

type LongestWindow = { __longest: number };

/**
 * BENCH_QUEUE_PROFILE=1: where the main thread's time went while the held queue is reordered and pruned
 * (a CPU profile through the DevTools protocol): the functions of most self time, with their files.
 */
async function startProfile(page: Page): Promise<() => Promise<string>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map<string, number>();
    const dt = new Map<number, number>();
    profile.samples?.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
    for (const node of profile.nodes) {
      const f = node.callFrame;
      const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + (dt.get(node.id) ?? 0) / 1000);
    }
    return [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([name, ms]) => `      ${Math.round(ms)} ms  ${name}`)
      .join('\n');
  };
}

/**
 * `HELD` tasks held in a paused queue (one held by a click, copied in IndexedDB with keys and places of
 * their own, then a reload, as a queue left by an earlier session), then moved by keyboard and removed:
 * the longest main-thread task while doing so. Target: none over 50 ms.
 */
async function heldRun(browser: Browser, ports: Ports): Promise<{ longest: number; load: number }> {
  await reset(ports);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    const w = window as unknown as LongestWindow;
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await openPopForm(page, ports);
  await queueRegion(page).getByRole('button', { name: 'Pause queue' }).click();
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  const items = queueRegion(page).getByTestId('queue-item');
  await items.first().waitFor();
  await page.evaluate(
    (count) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('media-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          const store = tx.objectStore('outbox');
          const all = store.getAll();
          all.onsuccess = () => {
            const first = (
              all.result as Array<{ held?: { position: number } } & Record<string, unknown>>
            ).find((e) => e.held)!;
            for (let i = 1; i < count; i++) {
              store.put({
                ...first,
                idempotencyKey: `bench-held-${i}`,
                createdAt: Number(first.createdAt) + i,
                request: {
                  ...(first.request as object),
                  params: { prompt: `bench: held task ${i}` },
                },
                held: { ...first.held, position: first.held!.position + 1024 * i },
              });
            }
          };
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    HELD,
  );
  await page.reload();
  // The count as the panel writes it, grouped in the studio's language (English here): "(1,000)".
  await queueRegion(page)
    .getByText(`(${HELD.toLocaleString('en')})`)
    .waitFor({ timeout: 120_000 });
  await page.waitForTimeout(2_000);
  await page.evaluate(() => ((window as unknown as LongestWindow).__longest = 0));
  const profiler = process.env.BENCH_QUEUE_PROFILE ? await startProfile(page) : null;
  // Reorder: the first task's handle, moved down ten places by keyboard.
  const handle = queueRegion(page).getByRole('button', { name: /^Move .*, place 1 of / });
  await handle.focus();
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(100);
  }
  // A figure from moves that never happened would mean nothing: the moved task is at place 11, focused.
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
  if (!new RegExp(`, place 11 of ${HELD}$`).test(focused))
    throw new Error(`The keyboard moves did not land (focus on "${focused}").`);
  // Remove: ten tasks, one after another.
  for (let i = 0; i < 10; i++) {
    await items.first().getByRole('button', { name: 'Remove', exact: true }).click();
    await page.waitForTimeout(100);
  }
  await queueRegion(page)
    .getByText(`(${HELD - 10})`)
    .waitFor();
  await page.waitForTimeout(500);
  const longest = await page.evaluate(() => (window as unknown as LongestWindow).__longest);
  if (profiler) console.log(await profiler());
  await page.close();
  return { longest, load: load() };
}

export async function queueHeld(browser: Browser, ports: Ports): Promise<Record<string, Figure>> {
  const runs: Array<{ longest: number; load: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await heldRun(browser, ports);
    console.log(`    held run ${i + 1}: longest task ${Math.round(run.longest)} ms, load ${run.load}`);
    runs.push(run);
  }
  const s = spread(runs.map((r) => r.longest));
  return {
    held1000LongestTask: {
      value: s.value,
      unit: 'ms',
      target: '<= 50 ms',
      ok: s.value <= 50,
      note: `${HELD} held tasks, 10 keyboard moves and 10 removals (0: no task over 50 ms, the longest the browser reports); median of ${RUNS}, range ${s.range}, load ${runs.map((r) => r.load).join(', ')}`,
    },
  };
}
