import { chromium, type Locator, type Page } from '@playwright/test';
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import sharp from 'sharp';
import { CHROMIUM } from '../scripts/chromium';
import { sandboxProcessEnv } from '../node-shared/process-env';
import { createStudioServer, studioSettings } from '../server/studio-server';
import { jsHeapUsedMb } from './page-metrics';
import type { Figure } from './results-file';
import type { SoakSandboxState } from './soak-sandbox';
import type { Ports } from './studio-bench';

// `npm run bench -- soak [--minutes N]` (default 30; SOAK_SHOTS=<folder> keeps a screenshot of each
// failed step): a scripted creator in Chromium against the
// sandbox, round after round of generate, upload, star, compare and reload, while a fault is injected
// every minute in turn: dropped connections, a run of 503s, a 429 storm, an outage, a stall
// (the sandbox's control API, sandbox/README.md). At the end, with the faults cleared and the studio
// given time to catch up, what the sandbox holds is compared with what the studio holds:
//   - lost tasks: tasks the sandbox created for the key that are not in the studio's history (its export);
//   - double charges: a prompt sent once that made more than one task, a charge without a task, or a
//     balance that moved by other than the tasks' charges;
//   - the studio's JS heap (after a garbage collection) and the sandbox's memory, sampled each minute,
//     with their least-squares slope in MB per hour: the sandbox's resident memory, and apart from it
//     its JS heap and its external memory (Buffers) after a garbage collection, with the media cache's
//     share of the latter, so that a growth says where it is (JavaScript holding objects or bytes, or
//     native memory: libvips, the allocator).
// The studio's steps may fail while a fault lasts (that is the point): they are counted, not fatal.

const STEP_TIMEOUT_MS = 60_000;
const SOAK_MEDIA_MEMORY_MB = 4;
const KEY = 'personal';

interface Sample {
  atMs: number;
  heapMb: number | null;
  sandbox: Omit<SoakSandboxState, 'tasks' | 'charges' | 'balance'>;
}

/** Least-squares slope of y over x. */
export function slope(points: Array<[number, number]>): number | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

/** The faults, one a minute in turn (sandbox/README.md: the control API). */
const FAULTS: Array<{ name: string; inject: (sandbox: string) => Promise<void> }> = [
  {
    name: 'drops',
    inject: async (sb) => {
      await addFault(sb, { method: 'POST', path: '/v1/tasks', drop: 'after', count: 1 });
      await addFault(sb, { method: 'GET', path: '/v1/tasks/*', drop: 'before', count: 3 });
      await addFault(sb, { method: 'POST', path: '/v1/uploads', drop: 'before', count: 1 });
    },
  },
  { name: '503s', inject: (sb) => addFault(sb, { path: '/v1/*', status: 503, count: 8 }) },
  {
    name: '429 storm',
    inject: (sb) => addFault(sb, { path: '/v1/*', status: 429, retryAfter: 2, count: 40 }),
  },
  {
    name: 'outage',
    inject: async (sb) => {
      await control(sb, 'POST', '/outage', { durationMs: 15_000 });
    },
  },
  {
    name: 'stall',
    inject: (sb) => addFault(sb, { method: 'GET', path: '/v1/*', delayMs: 20_000, count: 3 }),
  },
];

async function control(sandbox: string, method: string, path: string, body?: unknown): Promise<Response> {
  const r = await fetch(`${sandbox}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} /__sandbox${path} answered ${r.status}: ${await r.text()}`);
  return r;
}
const addFault = async (sandbox: string, fault: Record<string, unknown>) => {
  await control(sandbox, 'POST', '/faults', fault);
};

/** The sandbox child's state (bench/soak-sandbox.ts), asked over IPC. */
function stateOf(child: ChildProcess): Promise<SoakSandboxState> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as SoakSandboxState));
    child.send({ keyName: KEY });
  });
}

async function keyOf(sandbox: string): Promise<string> {
  const keys = (await (await control(sandbox, 'GET', '/keys')).json()) as Array<{
    name: string;
    key: string;
  }>;
  return keys.find((k) => k.name === KEY)!.key;
}

/** One creator's page: the steps, by role and label (PRODUCT.md's names). */
class Creator {
  constructor(
    readonly page: Page,
    readonly ports: Ports,
  ) {}

  get history(): Locator {
    return this.page.getByRole('region', { name: 'History', exact: true });
  }

  async connect(key: string) {
    await this.page.goto(this.ports.studio);
    await this.page.getByLabel('API key', { exact: true }).fill(key);
    // Remembered, so that a reload comes back connected, as a creator's studio does.
    await this.page.getByRole('checkbox', { name: /Remember this key on this device/ }).check();
    await this.page.getByRole('button', { name: 'Connect', exact: true }).click();
    await this.page.getByRole('button', { name: /^Account: / }).waitFor();
  }

  async openModel(name: string, category = 'image/default') {
    await this.page.getByRole('tab', { name: 'Models', exact: true }).click();
    await this.page.getByRole('combobox', { name: 'Category', exact: true }).selectOption(category);
    await this.page
      .getByRole('navigation', { name: 'Catalog' })
      .getByRole('listitem')
      .filter({ has: this.page.getByText(name, { exact: true }) })
      .getByRole('button')
      .click();
    const form = this.page.getByRole('form', { name, exact: true });
    await form.waitFor();
    return form;
  }

  /** Generate: one Pop Diffusion task; waits for its card. */
  async generate(prompt: string) {
    await this.openModel('Pop Diffusion');
    await this.page.getByRole('textbox', { name: 'Prompt', exact: true }).fill(prompt);
    await this.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await this.history
      .getByRole('list', { name: 'Tasks', exact: true })
      .getByRole('listitem')
      .filter({ has: this.page.getByText(prompt, { exact: true }) })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT_MS });
  }

  /** Upload: a PNG into Upscale Pro's image field, until it is ready. */
  async upload(file: { name: string; mimeType: string; buffer: Buffer }) {
    const form = await this.openModel('Upscale Pro');
    const group = form.getByRole('group', { name: 'Image to upscale' });
    await group.getByLabel('Upload file', { exact: true }).setInputFiles(file);
    await group
      .getByRole('status')
      .filter({ hasText: `${file.name} is ready.` })
      .waitFor({
        timeout: STEP_TIMEOUT_MS,
      });
  }

  /** Star: the newest output that has one, by its tile's Star toggle in the Gallery. */
  async star() {
    const galleryButton = this.page.getByRole('button', { name: 'Gallery', exact: true });
    await galleryButton.click();
    const gallery = this.page.getByRole('main', { name: 'Gallery' });
    const starButton = this.page.getByRole('button', { name: 'Star', exact: true });
    const tile = gallery.getByTestId('gallery-tile').filter({ has: starButton }).first();
    const star = tile.getByRole('button', { name: 'Star', exact: true });
    if ((await star.getAttribute('aria-pressed')) !== 'true') await star.click();
    await tile.locator('button[aria-label="Star"][aria-pressed="true"]').waitFor();
    await galleryButton.click();
  }

  /** Compare: two image models on one prompt, run, until both cells end. */
  async compare(prompt: string) {
    await this.page.getByRole('button', { name: /^Compare/ }).click();
    const board = this.page.getByRole('region', { name: 'Compare', exact: true });
    await board.waitFor();
    const add = board.getByRole('combobox', { name: 'Add model' });
    for (const label of ['Pop Diffusion · Pop 1', 'Lumen Canvas · v2']) {
      await add.selectOption({ label });
    }
    await board.getByLabel('Prompt 1', { exact: true }).fill(prompt);
    await board.getByRole('button', { name: /^Run all/ }).click();
    await board
      .locator('[data-cell-state="succeeded"], [data-cell-state="failed"]')
      .nth(1)
      .waitFor({ timeout: STEP_TIMEOUT_MS });
  }

  /** Reload: the studio opened afresh at its address (the Compare view's own address is left). */
  async reload() {
    await this.page.goto(this.ports.studio);
    await this.page.getByRole('button', { name: /^Account: / }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await this.history.waitFor({ timeout: STEP_TIMEOUT_MS });
  }

  /** The history as the studio exports it: every task id it holds. */
  async exportedTaskIds(): Promise<Set<string>> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.history.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const path = await download.path();
    const file = JSON.parse(readFileSync(path, 'utf8')) as { tasks: Array<{ taskId: string }> };
    return new Set(file.tasks.map((t) => t.taskId));
  }
}

interface SoakOptions {
  minutes: number;
  ports: Ports;
  distDir?: string;
  log?: (line: string) => void;
}

export async function soak({
  minutes,
  ports,
  distDir = 'dist',
  log = console.log,
}: SoakOptions): Promise<Record<string, Figure>> {
  const sandboxPort = new URL(ports.sandbox).port;
  const cacheBoundMb = Number(process.env.SOAK_MEDIA_MEMORY_MB ?? SOAK_MEDIA_MEMORY_MB);
  const child = fork('bench/soak-sandbox.ts', {
    // --expose-gc: the child collects before it reads its memory (soak-sandbox.ts).
    execArgv: ['--expose-gc', '--import', 'tsx'],
    // With the environment a sandbox runs with (node-shared/process-env.ts: malloc's arenas).
    env: {
      ...process.env,
      ...sandboxProcessEnv(),
      SOAK_SANDBOX_PORT: sandboxPort,
      SOAK_STUDIO_ORIGIN: ports.studio,
      // The media cache is bounded (64 MiB by default) and takes most of an hour of this creator to fill:
      // a growth that stops at its bound, not a leak, yet it would fill the whole run's slope. Kept small,
      // it is full within the first minutes, and what the resident memory does after that is the rest.
      SOAK_MEDIA_MEMORY_MB: String(cacheBoundMb),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the soak's sandbox exited (${code})`)));
  });
  const settings = studioSettings(
    { TEAM_SPACE: 'off' },
    { origin: ports.studio, sandbox: { baseUrl: `${ports.sandbox}/v1`, origin: ports.sandbox } },
  );
  const studio: Server = createStudioServer(settings, distDir);
  await new Promise<void>((resolve) =>
    studio.listen(Number(new URL(ports.studio).port), '127.0.0.1', resolve),
  );
  const browser = await chromium.launch(CHROMIUM);
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const creator = new Creator(page, ports);
  const png = await sharp({
    create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();

  const steps = { generate: 0, upload: 0, star: 0, compare: 0, reload: 0 };
  const failed: Record<keyof typeof steps, number> = {
    generate: 0,
    upload: 0,
    star: 0,
    compare: 0,
    reload: 0,
  };
  const samples: Sample[] = [];
  const faultsInjected: string[] = [];
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  const key = await keyOf(ports.sandbox);
  const startBalance = (await stateOf(child)).balance;
  let round = 0;
  let ticker: NodeJS.Timeout | undefined;
  try {
    await creator.connect(key);
    const sample = async () => {
      const heapMb = await jsHeapUsedMb(context, page).catch(() => null); // mid-reload: none this minute
      const { rssMb, heapUsedMb, externalMb, mediaCacheMb } = await stateOf(child);
      samples.push({
        atMs: Date.now() - started,
        heapMb,
        sandbox: { rssMb, heapUsedMb, externalMb, mediaCacheMb },
      });
      log(
        `  soak ${((Date.now() - started) / 60_000).toFixed(1)} min: heap ${heapMb?.toFixed(1) ?? 'n/a'} MB, sandbox RSS ${rssMb.toFixed(0)} MB (heap ${heapUsedMb.toFixed(1)}, external ${externalMb.toFixed(1)} of which media cache ${mediaCacheMb.toFixed(1)}), steps ${JSON.stringify(steps)}, failed ${JSON.stringify(failed)}`,
      );
    };
    await sample();
    // Every minute: a sample, then the next fault in turn.
    let minute = 0;
    const tick = async () => {
      const fault = FAULTS[minute++ % FAULTS.length]!;
      await sample().catch((e: unknown) => log(`  sample failed: ${String(e)}`));
      await fault
        .inject(ports.sandbox)
        .catch((e: unknown) => log(`  fault ${fault.name} failed: ${String(e)}`));
      faultsInjected.push(fault.name);
      log(`  fault: ${fault.name}`);
      if (Date.now() < deadline) ticker = setTimeout(() => void tick(), 60_000);
    };
    ticker = setTimeout(() => void tick(), 60_000);

    const attempt = async (name: keyof typeof steps, run: () => Promise<void>) => {
      steps[name]++;
      try {
        await run();
      } catch (e) {
        failed[name]++;
        log(`  ${name} failed in round ${round}: ${String(e).split('\n')[0]}`);
        // Back to a known place: the studio's page, reloaded (an outage may still be on).
        await page.keyboard.press('Escape').catch(() => undefined);
        if (process.env.SOAK_SHOTS)
          await page
            .screenshot({ path: `${process.env.SOAK_SHOTS}/${round}-${name}.png` })
            .catch(() => undefined);
      }
    };
    while (Date.now() < deadline) {
      round++;
      const tag = `soak ${round} ${started.toString(36)}`;
      await attempt('generate', () => creator.generate(`generate ${tag}`));
      await attempt('upload', () =>
        creator.upload({ name: `soak-${round}.png`, mimeType: 'image/png', buffer: png }),
      );
      await attempt('star', () => creator.star());
      await attempt('compare', () => creator.compare(`compare ${tag}`));
      await attempt('reload', () => creator.reload());
    }
    clearTimeout(ticker);
    await sample();

    // The end: faults cleared, the studio given time to finish its polls and retries, then compared.
    await control(ports.sandbox, 'DELETE', '/faults');
    let lost: string[] = [];
    let studioIds = new Set<string>();
    let end = await stateOf(child);
    for (let i = 0; i < 12; i++) {
      await page.waitForTimeout(5_000);
      await creator.reload().catch(() => undefined);
      studioIds = await creator.exportedTaskIds().catch((e: unknown) => {
        log(`  export failed: ${String(e).split('\n')[0]}`);
        return studioIds;
      });
      end = await stateOf(child);
      lost = end.tasks
        .filter((t) => !studioIds.has(t.id))
        // Which step made it (its prompt names the step and round), to find where it was lost.
        .map((t) => `${t.id} (${t.modelId}, "${t.prompt}")`);
      if (lost.length === 0) break;
    }
    const byIntent = new Map<string, number>();
    for (const t of end.tasks)
      byIntent.set(`${t.modelId} ${t.prompt}`, (byIntent.get(`${t.modelId} ${t.prompt}`) ?? 0) + 1);
    const repeated = [...byIntent.values()].reduce((s, n) => s + Math.max(0, n - 1), 0);
    const chargesWithoutTask = Math.max(0, end.charges.length - end.tasks.length);
    const charged = end.charges.reduce((s, c) => s + c, 0);
    const balanceGap = Math.round((startBalance - end.balance - charged) * 100) / 100;
    const doubleCharges = repeated + chargesWithoutTask + (balanceGap === 0 ? 0 : 1);

    const hours = (ms: number) => ms / 3_600_000;
    const heapPoints = samples.flatMap((s) =>
      s.heapMb === null ? [] : [[hours(s.atMs), s.heapMb] as [number, number]],
    );
    const heapSlope = slope(heapPoints);
    const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
    const sandboxSlope = (measure: keyof Sample['sandbox'], what: string, digits: number): Figure => {
      const points = samples.map((s) => [hours(s.atMs), s.sandbox[measure]] as [number, number]);
      // The first minute loads libvips and fills the pools once: the slope without it, beside; and the
      // slope from the first sample with the media cache within 1 MiB of its bound (its growth over).
      const settled = round1(slope(points.slice(1)));
      const full = samples.findIndex((s) => s.sandbox.mediaCacheMb >= cacheBoundMb - 1);
      const afterFull = full < 0 ? null : round1(slope(points.slice(full)));
      return {
        value: round1(slope(points)),
        unit: 'MB/h',
        target: 'reported',
        ok: true,
        note: `${what}, ${settled ?? 'n/a'} MB/h from the first minute on, ${full < 0 ? `the media cache never full (${cacheBoundMb} MiB)` : `${afterFull ?? 'n/a'} MB/h from minute ${full} on (the media cache full, ${cacheBoundMb} MiB)`}; ${points.length} samples: ${points.map(([, y]) => y.toFixed(digits)).join(', ')} MB`,
      };
    };
    const lastCache = samples.at(-1)?.sandbox.mediaCacheMb ?? 0;
    const ran = `${minutes} min, ${round} rounds, ${faultsInjected.length} faults (${[...new Set(faultsInjected)].join(', ')})`;
    return {
      lostTasks: {
        value: lost.length,
        unit: 'tasks',
        target: '0',
        ok: lost.length === 0,
        note: `${end.tasks.length} tasks made by the sandbox, ${studioIds.size} in the studio's history; ${ran}${lost.length ? `; lost ${lost.slice(0, 5).join(', ')}` : ''}`,
      },
      doubleCharges: {
        value: doubleCharges,
        unit: 'charges',
        target: '0',
        ok: doubleCharges === 0,
        note: `${repeated} prompts sent once that made more than one task, ${chargesWithoutTask} charges without a task, balance moved ${startBalance - end.balance} credits for ${charged} charged`,
      },
      heapSlope: {
        value: round1(heapSlope),
        unit: 'MB/h',
        target: 'reported',
        ok: true,
        note: `studio JS heap after GC, ${heapPoints.length} samples: ${heapPoints.map(([, y]) => y.toFixed(1)).join(', ')} MB`,
      },
      sandboxRssSlope: sandboxSlope('rssMb', 'sandbox resident memory', 0),
      sandboxHeapSlope: sandboxSlope('heapUsedMb', 'sandbox JS heap used, after a garbage collection', 1),
      sandboxExternalSlope: sandboxSlope(
        'externalMb',
        `sandbox external memory (Buffers) after a garbage collection, the media cache ${lastCache.toFixed(1)} MB of it at the end`,
        1,
      ),
      sandboxMediaCacheSlope: sandboxSlope('mediaCacheMb', 'the sandbox media cache (bounded)', 1),
      steps: {
        value: Object.values(steps).reduce((s, n) => s + n, 0),
        unit: 'steps',
        target: 'reported',
        ok: true,
        note: `failed while faults were on: ${Object.entries(failed)
          .map(([k, n]) => `${k} ${n}/${steps[k as keyof typeof steps]}`)
          .join(', ')}`,
      },
    };
  } finally {
    clearTimeout(ticker);
    await browser.close();
    studio.closeAllConnections();
    studio.close();
    child.kill('SIGTERM');
  }
}
