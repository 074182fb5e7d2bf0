import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, WebSocketRoute } from '@playwright/test';
import * as Y from 'yjs';
import { routeOf, syncUpdateFrame } from '../server/team-space/messages';
import { Studio, expect, test as base, type DemoKeyName } from './fixtures';
import { History, TASK_TIMEOUT, generate, uniquePrompt } from './task-helpers';
import { expectNoSeriousViolations } from './axe-helpers';

// A member's share of the team room and the changes the server refuses (docs/team-space.md, "What the
// server enforces"), in real browsers against the real team-space server:
// - "Free space": a member fills their share until the server refuses a write ('share-full'); the dialog
//   is reached and used by keyboard only, and freeing space lets the same write through to the others.
//   Its server is one of this file's own (a studio, its sandbox and its team space, as `npm start` runs
//   them), with a small document limit so a few comments fill a share, and a room of its own per test.
// - A change the server refuses for another reason (not-yours, unknown-field, invalid-value,
//   server-only): the studio itself never writes one, so the test writes it on the page's own WebSocket
//   (Playwright's routeWebSocket, a raw Yjs update in Hocuspocus's framing, as the hostile-member tests
//   of server/team-space do): the server refuses it on the page's connection as it would the page's own.

/** The room's limit on the share's server: each member's share is a quarter, 8 KiB. */
const SMALL_DOCUMENT_BYTES = 32 * 1024;

/** The notices' words for each refusal (src/features/team/team-reasons.ts), as a member reads them. */
const WORDS = {
  'share-full':
    "Your share of the team space is full, so it refused this change: nothing of it was shared. Free space by deleting some of your shared prompts or tasks' copies.",
  'not-yours':
    'This change wrote something that belongs to another member, so the team space refused it: nothing of it was shared.',
  'unknown-field':
    'This change wrote a kind of data the team space does not know, so it refused it: nothing of it was shared. Reload the studio: it may be older than the team space.',
  'invalid-value':
    'This change held a value the team space does not accept (the wrong shape, too long or too large), so it refused it: nothing of it was shared.',
  'server-only':
    'This change wrote what only the team space itself writes (the version of its data), so it refused it: nothing of it was shared.',
} as const;
const reasonText = (reason: keyof typeof WORDS) => WORDS[reason];

const ANA = { key: 'team', name: 'Ana' } as const;
const BEN = { key: 'team2', name: 'Ben' } as const;

/** One member: a browser context of their own, connected with a demo key, the team space on. */
class Member {
  readonly studio: Studio;
  readonly history: History;

  constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    keys: Record<string, string>,
    readonly key: DemoKeyName,
    readonly name: string,
  ) {
    this.studio = new Studio(page, keys);
    this.history = new History(page);
  }

  get status(): Locator {
    return this.page.getByRole('status', { name: 'Team space', exact: true });
  }

  get notices(): Locator {
    return this.page.getByRole('region', { name: /^Notices/ });
  }

  async join(): Promise<void> {
    await this.studio.start(this.key);
    const dialog = await this.studio.openAccount();
    const toggle = dialog.getByRole('switch', { name: 'Team space', exact: true });
    await toggle.click();
    await expect(toggle).toBeChecked();
    await dialog.getByLabel('Display name', { exact: true }).fill(this.name);
    await dialog.getByRole('button', { name: 'Save name', exact: true }).click();
    await expect(dialog.getByRole('button', { name: 'Saved', exact: true })).toBeDisabled();
    await this.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(this.status).toHaveText(/^Team space online/, { timeout: 15_000 });
  }

  async makeTask(prompt: string): Promise<void> {
    if (!(await this.studio.form('Lumen Canvas').isVisible())) await this.studio.openModel('Lumen Canvas');
    await generate(this.studio, prompt);
    await this.history.expectStatus(this.history.card(prompt), 'succeeded', TASK_TIMEOUT);
  }

  get viewer(): Locator {
    return this.page.getByRole('dialog', { name: 'Viewer' });
  }

  /** Opens the Gallery and the Viewer on the tile whose name starts with the prompt; answers its Comments. */
  async view(prompt: string): Promise<Locator> {
    const gallery = this.page.getByRole('main', { name: 'Gallery' });
    if (!(await gallery.isVisible()))
      await this.page.getByRole('button', { name: 'Gallery', exact: true }).click();
    await gallery.getByRole('combobox', { name: 'Search prompts' }).fill(prompt);
    await gallery.getByRole('button', { name: new RegExp(`^${escape(prompt)}`) }).click();
    await expect(this.viewer).toBeVisible();
    return this.viewer.getByRole('region', { name: 'Comments', exact: true });
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Join = (who: { key: DemoKeyName; name: string }, options?: { beforeJoin?: Tap }) => Promise<Member>;
type Tap = (context: BrowserContext) => Promise<void>;

/** Joins members, each in a context of their own (closed after the test), on the test's baseURL. */
const joining = async (browser: Browser, baseURL: string, demoKeys: Record<string, string>) => {
  const contexts: BrowserContext[] = [];
  const join: Join = async ({ key, name }, options = {}) => {
    const context = await browser.newContext({ baseURL });
    contexts.push(context);
    await options.beforeJoin?.(context);
    const member = new Member(context, await context.newPage(), demoKeys, key, name);
    await member.join();
    return member;
  };
  return { join, close: async () => Promise.all(contexts.map((c) => c.close())) };
};

// ---- a studio of this file's own, with a small team room ----------------------------------------------

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface SmallRoomStudio {
  origin: string;
  sandboxOrigin: string;
}

/** server/start.ts in a process group of its own, with these team-space settings. */
async function startStudio(
  settings: Record<string, string>,
): Promise<SmallRoomStudio & { stop(): Promise<void> }> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const data = mkdtempSync(join(tmpdir(), 'media-studio-e2e-share-'));
  const origin = `http://127.0.0.1:${port}`;
  let output = '';
  const server: ChildProcess = spawn('npx', ['tsx', 'server/start.ts'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_TASK_MS: '400',
      SANDBOX_MODERATION_MS: '1500',
      TEAM_SPACE_DATA: data,
      ...settings,
    },
  });
  for (const stream of [server.stdout!, server.stderr!])
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async () => {
    if (server.exitCode === null && server.pid !== undefined) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await exited;
    }
    rmSync(data, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the studio's server exited:\n${output}`);
    const ok = await fetch(`${origin}/config.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the studio did not answer at ${origin} within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { origin, sandboxOrigin: `http://127.0.0.1:${sandboxPort}`, stop };
}

/** Tests on a studio of their own (its sandbox fresh, a room of their own), with these team-space settings. */
const ownStudio = (settings: Record<string, string>) =>
  base.extend<{ smallRoom: SmallRoomStudio; join: Join }>({
    // The fixtures' own reset and keys are the config's sandbox's; this test's sandbox is fresh.
    // Playwright reads what a fixture needs from its first parameter's pattern: this one needs nothing.
    // eslint-disable-next-line no-empty-pattern
    smallRoom: async ({}, use) => {
      const studio = await startStudio(settings);
      try {
        await use(studio);
      } finally {
        await studio.stop();
      }
    },
    baseURL: async ({ smallRoom }, use) => use(smallRoom.origin),
    demoKeys: async ({ request, smallRoom }, use) => {
      const res = await request.get(`${smallRoom.sandboxOrigin}/__sandbox/keys`);
      const list = (await res.json()) as Array<{ name: string; key: string }>;
      await use(Object.fromEntries(list.map((k) => [k.name, k.key])));
    },
    join: async ({ browser, baseURL, demoKeys }, use) => {
      const members = await joining(browser, baseURL!, demoKeys);
      await use(members.join);
      await members.close();
    },
  });

const smallRoom = ownStudio({ TEAM_SPACE_MAX_DOCUMENT_BYTES: String(SMALL_DOCUMENT_BYTES) });
/**
 * A room whose live window is two finished tasks, looked at every second: the rest go to the server's
 * store at once (docs/team-space.md "History at scale").
 */
const smallWindow = ownStudio({ TEAM_SPACE_LIVE_TASKS: '2', TEAM_SPACE_ARCHIVE_EVERY_MS: '1000' });

const test = base.extend<{ join: Join }>({
  join: async ({ browser, baseURL, demoKeys }, use) => {
    const members = await joining(browser, baseURL!, demoKeys);
    await use(members.join);
    await members.close();
  },
});

/** axe in light and dark; with SHARE_SHOTS set, a screenshot of each into that folder. */
const shareAxe = (page: Page, screen: string) =>
  expectNoSeriousViolations(page, screen, { shotsDir: process.env.SHARE_SHOTS });

/** Whether the focus is inside `scope`. */
const focusIsIn = (scope: Locator) => scope.evaluate((el) => el.contains(document.activeElement));

/** Presses `key` until `target` has the focus (at most `max` times); fails when it never does. */
async function pressUntilFocused(page: Page, key: string, target: Locator, max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

// ---- Free space --------------------------------------------------------------------------------------

smallRoom(
  'a member whose share is full is refused with share-full; Free space opens with its name, is used by keyboard only (Tab stays in it, Escape closes, Space chooses, Enter deletes), has no serious axe violation, and what it frees lets the refused comment through to the other member',
  async ({ join }) => {
    smallRoom.setTimeout(180_000);
    const tag = uniquePrompt('share');
    const commented = `${tag} lighthouse`;
    // A task whose copy takes a good part of the share: what Free space will take out of the team.
    const bulky = `${tag} harbour ${'at dawn, in soft mist over still water, '.repeat(80)}`.trim();
    const ana = await join(ANA);
    const ben = await join(BEN);
    await ana.makeTask(commented);
    await ana.makeTask(bulky);

    // Ben watches the comments on Ana's lighthouse.
    await expect(ben.history.card(commented)).toHaveCount(1, { timeout: 15_000 });
    const bensComments = await ben.view(commented);

    // Ana comments until the server refuses: comments are not held back by the studio's own count of the
    // share (only tasks, prompts and judgements are), so the server is the one to say no.
    const anasComments = await ana.view(commented);
    const refusal = ana.page.getByText(reasonText('share-full'), { exact: true });
    const body = (n: number) =>
      `Note ${n} of ${tag}: ${'the light is too cold on the left; '.repeat(40)}`.trim();
    let refused = 0;
    for (let n = 1; n <= 8 && refused === 0; n++) {
      await anasComments.getByRole('textbox', { name: 'Comment', exact: true }).fill(body(n));
      await anasComments.getByRole('button', { name: 'Add comment', exact: true }).click();
      const bensCopy = bensComments.getByText(`Note ${n} of ${tag}:`);
      const outcome = await expect
        .poll(
          async () =>
            (await refusal.isVisible()) ? 'refused' : (await bensCopy.isVisible()) ? 'shared' : '',
          {
            message: `comment ${n}: shared with Ben or refused`,
            timeout: 15_000,
          },
        )
        .not.toBe('')
        .then(async () => ((await refusal.isVisible()) ? 'refused' : 'shared'));
      if (outcome === 'refused') refused = n;
    }
    expect(refused, 'the server refused a comment once the share was full').toBeGreaterThan(1);

    // The refusal, in plain words, and the studio joins again afresh.
    await ana.page.keyboard.press('Escape');
    await expect(ana.viewer).toBeHidden();
    const notice = ana.notices.getByRole('listitem').filter({ hasText: reasonText('share-full') });
    await expect(notice).toContainText(
      "The studio dropped this device's copy of the team space and is joining it again.",
    );
    await expect(ana.status).toHaveText(/^Team space online · 2 of 2 members online/, { timeout: 30_000 });
    // The refused comment reached nobody.
    await expect(bensComments.getByText(`Note ${refused} of ${tag}:`)).toHaveCount(0);

    // Free space, by keyboard: the status line's button, Enter.
    const freeSpaceButton = ana.status.getByRole('button', { name: 'Free space', exact: true });
    await expect(freeSpaceButton).toBeVisible();
    await freeSpaceButton.focus();
    await ana.page.keyboard.press('Enter');
    const dialog = ana.page.getByRole('dialog', { name: 'Free space', exact: true });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription(/^Your shared prompts and tasks' copies in the team/);
    expect(await focusIsIn(dialog), 'the focus moved into the dialog').toBe(true);
    const items = dialog.getByRole('list', { name: 'Your shared items', exact: true }).getByRole('listitem');
    // Both are tasks' copies of one model: each names its prompt too, to be told apart.
    await expect(items).toHaveCount(2);
    await expect(items.filter({ hasText: commented })).toHaveCount(1);
    await expect(items.filter({ hasText: `${tag} harbour` })).toHaveCount(1);

    // Tab and Shift+Tab go round the dialog, never out of it (its close button, its two boxes at least).
    for (const key of ['Tab', 'Shift+Tab']) {
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        await ana.page.keyboard.press(key);
        expect(await focusIsIn(dialog), `${key} ${i + 1}: the focus stays in the dialog`).toBe(true);
        seen.add(await ana.page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? ''));
      }
      expect(seen.size, `${key} visits more than one control`).toBeGreaterThan(1);
    }

    // Escape closes it, and the focus goes back to the button that opened it; Enter opens it again.
    await ana.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(freeSpaceButton).toBeFocused();
    await ana.page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();

    // Space chooses the bulky task's copy; Tab reaches Delete, which Enter presses.
    const bulkyBox = dialog.getByRole('checkbox', {
      name: new RegExp(`^Lumen Canvas ${escape(tag)} harbour`),
    });
    await pressUntilFocused(ana.page, 'Tab', bulkyBox);
    await ana.page.keyboard.press('Space');
    await expect(bulkyBox).toBeChecked();
    const deleteButton = dialog.getByRole('button', { name: 'Delete', exact: true });
    await expect(deleteButton).toBeEnabled();

    // axe with the dialog open (a box chosen), at 1280 px and on a phone.
    await shareAxe(ana.page, 'free space dialog');
    const desktop = ana.page.viewportSize()!;
    await ana.page.setViewportSize({ width: 390, height: 844 });
    await shareAxe(ana.page, 'free space dialog');
    await ana.page.setViewportSize(desktop);

    await pressUntilFocused(ana.page, 'Tab', deleteButton);
    await ana.page.keyboard.press('Enter');
    await expect(dialog.getByText('Deleted 1 item from the team.', { exact: true })).toBeVisible();
    await expect(items).toHaveCount(1);
    // Delete is disabled now: the focus went to the share's new figure, not to the page behind.
    await expect(dialog.getByText(/^Your share uses /)).toBeFocused();
    await ana.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The freed space lets the refused comment through: Ben sees it.
    const again = await ana.view(commented);
    await again.getByRole('textbox', { name: 'Comment', exact: true }).fill(body(refused));
    await again.getByRole('button', { name: 'Add comment', exact: true }).click();
    await expect(bensComments.getByText(`Note ${refused} of ${tag}:`)).toBeVisible({ timeout: 10_000 });
    // Not refused again (that would stop the studio joining: team-live.ts).
    await ana.page.keyboard.press('Escape');
    await expect(ana.viewer).toBeHidden();
    await expect(ana.status).toHaveText(/^Team space online · 2 of 2 members online$/);
  },
);

// ---- a change the server refuses -----------------------------------------------------------------------

/**
 * The page's team-space WebSocket, passed through as it is, with a way to send the server a Yjs update
 * on it as if the page had written it (in the room the page joined, read from its first message).
 */
function tapSync() {
  const sockets: Array<{ server: WebSocketRoute; room: string | null }> = [];
  const tap: Tap = (context) =>
    context.routeWebSocket(/\/sync$/, (ws) => {
      const socket = { server: ws.connectToServer(), room: null as string | null };
      sockets.push(socket);
      ws.onMessage((message) => {
        if (socket.room === null && typeof message !== 'string') socket.room = routeOf(message)?.name ?? null;
        socket.server.send(message);
      });
    });
  const write = (change: (doc: Y.Doc) => void) => {
    const socket = sockets.at(-1);
    expect(socket?.room, 'the page joined a room on its socket').toBeTruthy();
    // A Y.Doc of its own: a new client's writes at the top of a root need nothing of the room's.
    const doc = new Y.Doc();
    change(doc);
    socket!.server.send(Buffer.from(syncUpdateFrame(socket!.room!, Y.encodeStateAsUpdate(doc))));
  };
  return { tap, write };
}

type Refusal = 'not-yours' | 'unknown-field' | 'invalid-value' | 'server-only';

/** A change the server refuses for each reason (contract/team-doc.ts, server/team-space/authority.ts). */
const REFUSED: Record<Refusal, (doc: Y.Doc) => void> = {
  // Another member's name: members are written only under their own key.
  'not-yours': (doc) => doc.getMap('members').set('key_not_this_member', { name: 'Mallory', joinedAt: 1 }),
  // A root the document does not have.
  'unknown-field': (doc) => doc.getMap('scratch').set('anything', 1),
  // A member record of the wrong shape.
  'invalid-value': (doc) => doc.getMap('members').set('key_any', { name: 42 }),
  // The room's version, which only the server's migrations write.
  'server-only': (doc) => doc.getMap('meta').set('schemaVersion', 999),
};

const REJOINING =
  "The studio dropped this device's copy of the team space and is joining it again. Your history, stars, presets and prompts on this device are kept.";

test('a change the server refuses as not-yours: the notice says why and that the studio joins again; it rejoins and shares the next task with the other member; no serious axe violation', async ({
  join,
}) => {
  test.setTimeout(120_000);
  const prompt = uniquePrompt('after the refusal');
  const { tap, write } = tapSync();
  const ana = await join(ANA, { beforeJoin: tap });
  const ben = await join(BEN);
  write(REFUSED['not-yours']);

  const notice = ana.notices.getByRole('listitem').filter({ hasText: reasonText('not-yours') });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(REJOINING);
  await expect(ana.status).toHaveText(/^Team space online · 2 of 2 members online/, { timeout: 30_000 });
  await shareAxe(ana.page, 'change refused notice');

  // The studio goes on: Ana's next task reaches Ben, by name.
  await ana.makeTask(prompt);
  const card = ben.history.card(prompt);
  await expect(card).toHaveCount(1, { timeout: 15_000 });
  await expect(card.getByTestId('task-by')).toHaveText('by Ana');
});

for (const reason of ['unknown-field', 'invalid-value', 'server-only'] as const) {
  test(`a change the server refuses as ${reason}: the notice words that reason, and the studio joins again`, async ({
    join,
  }) => {
    const { tap, write } = tapSync();
    const ana = await join(ANA, { beforeJoin: tap });
    write(REFUSED[reason]);
    const notice = ana.notices.getByRole('listitem').filter({ hasText: reasonText(reason) });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(REJOINING);
    await expect(ana.status).toHaveText(/^Team space online/, { timeout: 30_000 });
  });
}

test('a change refused again soon after joining afresh: the studio stops joining, and the notice and the status line say so', async ({
  join,
}) => {
  const { tap, write } = tapSync();
  const ana = await join(ANA, { beforeJoin: tap });
  write(REFUSED['not-yours']);
  await expect(ana.notices.getByRole('listitem').filter({ hasText: REJOINING })).toBeVisible();
  await expect(ana.status).toHaveText(/^Team space online/, { timeout: 30_000 });

  write(REFUSED['unknown-field']);
  const notice = ana.notices.getByRole('listitem').filter({ hasText: reasonText('unknown-field') });
  await expect(notice).toContainText(
    'It was refused again, so the studio stopped joining the team space. Turn the team space off and on to try again; everything on this device is kept.',
  );
  await expect(ana.status).toContainText(
    "The team space refused this device's changes again, so the studio stopped joining it. Turn the team space off and on to try again.",
  );
  await shareAxe(ana.page, 'stopped after a second refusal');
});

// ---- the team's earlier tasks, kept by the server --------------------------------------------------

smallWindow(
  "a member who joins sees the room's recent tasks, then the team's earlier ones, read from the server as the History's end comes into view",
  async ({ join, demoKeys }) => {
    smallWindow.setTimeout(180_000);
    const tag = uniquePrompt('earlier');
    const prompts = ['lighthouse', 'harbour', 'orchard', 'glacier', 'meadow'].map((w) => `${tag} ${w}`);
    const ana = await join(ANA);
    for (const prompt of prompts) await ana.makeTask(prompt);
    // Ana's own list keeps every task whatever the server moved.
    for (const prompt of prompts) await expect(ana.history.card(prompt)).toHaveCount(1);

    // Ben joins on a device of his own after the server moved all but the two newest out of the room.
    await expect
      .poll(
        async () => {
          const res = await ana.page.request.get('/sync/history?limit=500', {
            headers: { Authorization: `Bearer ${demoKeys.team}` },
          });
          return ((await res.json()) as { tasks: unknown[] }).tasks.length;
        },
        { timeout: 30_000 },
      )
      .toBe(3);
    const ben = await join(BEN);
    const region = ben.page.getByRole('region', { name: 'History' });
    await expect(ben.history.card(prompts[4]!)).toHaveCount(1, { timeout: 15_000 });
    await expect(ben.history.card(prompts[3]!)).toHaveCount(1);
    // Nothing earlier is read while the list's end is out of view; scrolled to, it is read on its own.
    const more = region.getByRole('button', { name: 'Show the team’s earlier tasks', exact: true });
    await expect(more).toBeAttached();
    await expect(ben.history.cards).toHaveCount(2);
    await more.scrollIntoViewIfNeeded();
    await expect(ben.history.card(prompts[2]!)).toHaveCount(1, { timeout: 15_000 });
    await expect(ben.history.card(prompts[0]!)).toHaveCount(1);
    await expect(region.getByText('Every earlier task of the team is shown.')).toBeVisible();
    await expect(ben.history.cards).toHaveCount(5);
    await shareAxe(ben.page, 'earlier team tasks');

    // Usage: the team by month, the server's sums and the room's tasks (this month: all five, by Ana).
    await ben.page.getByRole('button', { name: 'Usage', exact: true }).click();
    const months = ben.page.getByRole('region', { name: 'The team by month' });
    await expect(months.getByTestId('team-month')).toHaveCount(1);
    await expect(months.getByTestId('team-month').locator('td').nth(1)).toHaveText('5');
    await shareAxe(ben.page, 'usage team by month');

    // The Gallery a month at a time, after a reload (what was read is not kept): this month's earlier
    // tasks are read from its end, and the month before comes next.
    await ben.page.reload();
    await ben.page.getByRole('button', { name: 'Gallery', exact: true }).click();
    const gallery = ben.page.getByRole('main', { name: 'Gallery' });
    // The room's two (the grid's end may be in view at once, and read the earlier three too).
    await expect(gallery.getByTestId('gallery-tile').first()).toBeVisible({ timeout: 15_000 });
    await gallery.getByRole('button', { name: 'Filters' }).click();
    const now = new Date();
    const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
    await gallery.getByRole('combobox', { name: 'Month' }).selectOption(month);
    await expect(gallery.getByTestId('gallery-tile')).toHaveCount(5, { timeout: 15_000 });
    await expect(gallery.getByText('Every task of the team in these dates is shown.')).toBeVisible();
    await shareAxe(ben.page, 'gallery month');
    const before = new Date(now.getFullYear(), now.getMonth() - 1, 15).toLocaleString('en-US', {
      month: 'long',
      year: 'numeric',
    });
    await gallery.getByRole('button', { name: `Go on to ${before}` }).click();
    await expect(gallery.getByText('No outputs match these filters')).toBeVisible();
    await expect(gallery.getByText('Every task of the team in these dates is shown.')).toBeVisible();
  },
);

smallWindow(
  'a comment and a star on a task weeks old follow it to the server: the member watching keeps them on screen, and after a reload reads them with the earlier task, the thread still answered and no longer resolved',
  async ({ join, demoKeys }) => {
    smallWindow.setTimeout(180_000);
    const tag = uniquePrompt('said');
    const [oldest, ...newer] = ['lighthouse', 'harbour', 'orchard'].map((w) => `${tag} ${w}`);
    const { tap, write } = tapSync();
    const ana = await join(ANA, { beforeJoin: tap });
    const ben = await join(BEN);
    for (const prompt of [oldest!, ...newer]) await ana.makeTask(prompt);
    // The oldest leaves the room (the window keeps two): the server's page names it and its maker.
    const page = async () => {
      const res = await ana.page.request.get(`/sync/history?q=${encodeURIComponent(oldest!)}`, {
        headers: { Authorization: `Bearer ${demoKeys.team}` },
      });
      return (await res.json()) as {
        tasks: Array<{ taskId: string; by: string }>;
        attached: Array<{ comments: Record<string, unknown> }>;
      };
    };
    await expect.poll(async () => (await page()).tasks.length, { timeout: 30_000 }).toBe(1);
    const { taskId, by } = (await page()).tasks[0]!;

    // Ben has it open when Ana's comment and star of three weeks ago reach the room (written on Ana's
    // socket, as a device of hers that was offline would bring them).
    const bensComments = await ben.view(oldest!);
    const weeksAgo = Date.now() - 21 * 86_400_000;
    write((doc) => {
      doc.getMap('judgements').set(`${by}|${taskId}#0`, { starred: true, rating: 5, updatedAt: weeksAgo });
      const comment = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({
        id: 'c_weeks_ago',
        target: { kind: 'output', outputKey: `${taskId}#0` },
        parentId: null,
        author: by,
        body: 'The lamp is too bright.',
        mentions: [],
        createdAt: weeksAgo,
      }))
        comment.set(k, v);
      doc.getMap('comments').set('c_weeks_ago', comment);
    });
    const thread = bensComments.getByRole('article', { name: 'Thread by Ana' });
    await expect(thread.getByText('The lamp is too bright.')).toBeVisible({ timeout: 15_000 });
    // Quiet for three weeks: the server's next pass moves both to the task's row.
    await expect
      .poll(async () => Object.keys((await page()).attached[0]?.comments ?? {}), { timeout: 30_000 })
      .toEqual(['c_weeks_ago']);
    // Still on Ben's screen, now as an earlier thread, with Ana's star.
    await expect(thread.getByText('Earlier thread: it can be answered, no longer resolved.')).toBeVisible();
    await expect(thread.getByText('The lamp is too bright.')).toBeVisible();
    await expect(ben.viewer.getByText('Team: Starred by 1, average 5')).toBeVisible();

    // After a reload, the search reads the earlier task with what was said about it.
    await ben.page.reload();
    await expect(ben.status).toHaveText(/^Team space online/, { timeout: 15_000 });
    const again = await ben.view(oldest!);
    const earlier = again.getByRole('article', { name: 'Thread by Ana' });
    await expect(earlier.getByText('The lamp is too bright.')).toBeVisible({ timeout: 15_000 });
    await expect(earlier.getByRole('button', { name: 'Resolve' })).toHaveCount(0);
    await expect(ben.viewer.getByText('Team: Starred by 1, average 5')).toBeVisible();
    await shareAxe(ben.page, 'earlier thread');
    await earlier.getByRole('button', { name: 'Reply', exact: true }).click();
    await earlier.getByRole('textbox', { name: 'Reply', exact: true }).fill('Dimmed it in the next one.');
    await earlier.getByRole('button', { name: 'Add reply', exact: true }).click();
    await expect(earlier.getByText('Dimmed it in the next one.')).toBeVisible();
  },
);
