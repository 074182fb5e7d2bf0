import type { Page } from '@playwright/test';
import { SANDBOX_ORIGIN, expect, test, type Fault, type Sandbox, type Studio } from './fixtures';
import { png, pngSize, uploadRequests } from './media-helpers';
import { History, expectImageLoaded, uniquePrompt } from './task-helpers';

// Faults (product-notes §3 "Submit", "Uploads", "History and gallery"): dropped connections before
// and after the effect, 503s, 429s, a stall and an outage. In each: no double charge, no lost task or
// upload, and a clear message (the "Connection" line) while the studio recovers.

test.beforeEach(async ({ studio, page }) => {
  await recordConnectionLine(page);
  await studio.start('personal');
});

/**
 * Everything the "Connection" status line says during the test, in order, recorded in the page (so a
 * message shown for a second is not missed between two polls of the test).
 */
async function recordConnectionLine(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __connectionLine: string[] }).__connectionLine = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[role="status"][aria-label="Connection"]')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const connectionLine = (page: Page) =>
  page.evaluate(() => (window as unknown as { __connectionLine: string[] }).__connectionLine);

/** The line said `trouble` while it lasted, then that the service answers again. */
async function expectRecoveryTold(page: Page, trouble: RegExp) {
  await expect.poll(() => connectionLine(page)).toContainEqual(expect.stringMatching(trouble));
  // Read from the recording, not the live line: "answering again" is shown for a few seconds only, and a
  // slow machine may look after it has gone.
  await expect
    .poll(() => connectionLine(page))
    .toContainEqual(expect.stringContaining('The service is answering again.'));
  const said = await connectionLine(page);
  const troubleAt = said.findIndex((t) => trouble.test(t));
  expect(
    said.slice(troubleAt).some((t) => t.includes('answering again')),
    said.join(' | '),
  ).toBe(true);
}

const isTaskPost = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/v1/tasks';

/**
 * One Generate click under `fault`: the task is created once and charged once, whatever the fault did,
 * and it ends succeeded in the History. Answers the POST /tasks the sandbox saw.
 */
async function oneClickUnder(
  { studio, page, sandbox }: { studio: Studio; page: Page; sandbox: Sandbox },
  fault: Fault,
  what: string,
) {
  const history = new History(page);
  await studio.openModel('Lumen Canvas', 'image/default');
  const prompt = uniquePrompt(what);
  await studio.prompt.fill(prompt);
  const credits = await sandbox.agreedQuote(studio);
  const before = await sandbox.balance();

  await sandbox.fault(fault);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();

  const card = history.card(prompt);
  await history.expectStatus(card, 'succeeded');
  await expectImageLoaded(card.getByRole('img', { name: prompt }));
  await expect(history.cards).toHaveCount(1);
  expect(await sandbox.balance(), 'charged exactly once').toBe(before - credits);
  const task = await sandbox.task(await history.taskIdOf(card));
  expect(task.creditsCharged).toBe(credits);
  return (await sandbox.requests()).filter(isTaskPost);
}

// Chromium itself re-sends a request once when a kept-alive connection closes without an answer, so a
// single dropped connection never reaches the studio; two in a row do. The studio then re-sends with
// the same Idempotency-Key (api-notes §7).
for (const drop of ['before', 'after'] as const) {
  test(`POST /tasks dropped ${drop} it took effect, twice: re-sent, one task, one charge`, async ({
    studio,
    sandbox,
    page,
  }) => {
    const posts = await oneClickUnder(
      { studio, page, sandbox },
      { method: 'POST', path: '/v1/tasks', drop, count: 2 },
      `dropped ${drop} the service acted`,
    );
    expect(posts.length, 'the dropped POSTs and the re-send').toBeGreaterThanOrEqual(3);
    await expectRecoveryTold(page, /Can't reach the service/);
  });
}

// The outbox's re-send after a reload (outbox.resume()) must be what sends the click, not a
// reload that may or may not beat the answer. Each drop comes only after HOLD_MS, so nothing can answer
// the page before the reload (two drops: Chromium re-sends once by itself, and that one is held too);
// after it, only the reloaded page's outbox knows the request and its Idempotency-Key.
const HOLD_MS = 8_000;
for (const drop of ['before', 'after'] as const) {
  test(`POST /tasks dropped ${drop} it took effect, twice, and a reload before any answer: the outbox re-sends it, one task, one charge`, async ({
    studio,
    sandbox,
    page,
    history,
  }) => {
    test.setTimeout(120_000);
    await studio.openModel('Lumen Canvas', 'image/default');
    const prompt = uniquePrompt(`reloaded while dropped ${drop}`);
    await studio.prompt.fill(prompt);
    const credits = await sandbox.agreedQuote(studio);
    const before = await sandbox.balance();

    // Every POST /tasks the page sends, with its key, and whether the page had reloaded by then.
    let reloaded = false;
    const sent: Array<{ key: string | undefined; afterReload: boolean }> = [];
    const answeredBeforeReload: number[] = [];
    const isPost = (r: { method: () => string; url: () => string }) =>
      r.method() === 'POST' && new URL(r.url()).pathname === '/v1/tasks';
    page.on('request', (r) => {
      if (isPost(r)) sent.push({ key: r.headers()['idempotency-key'], afterReload: reloaded });
    });
    page.on('response', (r) => {
      if (isPost(r.request()) && !reloaded) answeredBeforeReload.push(r.status());
    });

    await sandbox.fault({ method: 'POST', path: '/v1/tasks', drop, delayMs: HOLD_MS, count: 2 });
    const first = page.waitForRequest(isPost);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const key = (await first).headers()['idempotency-key'];
    expect(key, 'the click carries an Idempotency-Key').toBeTruthy();
    reloaded = true;
    await page.reload();
    expect(answeredBeforeReload, 'no answer reached the page before the reload').toEqual([]);

    // The key is still in the session: the studio reconnects, and its outbox sends the click again.
    await expect(studio.accountButton).toBeVisible({ timeout: 30_000 });
    const card = history.card(prompt);
    await history.expectStatus(card, 'succeeded', 90_000);
    await expect(history.cards).toHaveCount(1);
    const resent = sent.filter((s) => s.afterReload);
    expect(resent.length, 'the reloaded page sent it').toBeGreaterThanOrEqual(1);
    expect(
      resent.every((s) => s.key === key),
      'with the same Idempotency-Key',
    ).toBe(true);
    // One task, one charge, whether the first send took effect (after) or not (before).
    expect(await sandbox.balance(), 'charged exactly once').toBe(before - credits);
    expect((await sandbox.task(await history.taskIdOf(card))).creditsCharged).toBe(credits);
    const posts = (await sandbox.requests()).filter(isTaskPost);
    expect(posts.length, 'both held drops and the answered send').toBeGreaterThanOrEqual(3);
  });
}

test('503 twice, then success: one task, one charge, the trouble told meanwhile', async ({
  studio,
  sandbox,
  page,
}) => {
  const posts = await oneClickUnder(
    { studio, page, sandbox },
    { method: 'POST', path: '/v1/tasks', status: 503, count: 2 },
    'after two 503s',
  );
  expect(posts.map((p) => p.status)).toEqual([503, 503, 200]);
  // api-notes §7: retried after 1 s, then after 3 s.
  const gaps = posts.slice(1).map((p, i) => Date.parse(p.at) - Date.parse(posts[i]!.at));
  expect(gaps[0]).toBeGreaterThanOrEqual(900);
  expect(gaps[1]).toBeGreaterThanOrEqual(2_900);
  await expectRecoveryTold(page, /The service is having trouble \(HTTP 503\)/);
});

test('POST /tasks refused with 429 and Retry-After: sent again once the wait is over', async ({
  studio,
  sandbox,
  page,
}) => {
  const posts = await oneClickUnder(
    { studio, page, sandbox },
    { method: 'POST', path: '/v1/tasks', status: 429, retryAfter: 3, count: 1 },
    'after a 429',
  );
  expect(posts.map((p) => p.status)).toEqual([429, 200]);
  expect(Date.parse(posts[1]!.at) - Date.parse(posts[0]!.at)).toBeGreaterThanOrEqual(2_900);
  await expect
    .poll(() => connectionLine(page))
    .toContainEqual(expect.stringMatching(/Too many requests this minute: waiting \d s/));
});

test('a 10 s stall on POST /tasks: "slow to answer" while it lasts, then one task', async ({
  studio,
  sandbox,
  page,
}) => {
  test.setTimeout(90_000);
  const posts = await oneClickUnder(
    { studio, page, sandbox },
    { method: 'POST', path: '/v1/tasks', delayMs: 10_000, count: 1 },
    'stalled for ten seconds',
  );
  expect(posts.length, 'one POST: a stall is waited out, not re-sent').toBe(1);
  const said = await connectionLine(page);
  expect(
    said.some((t) => /The service is slow to answer \(waiting \d+ s\)/.test(t)),
    said.join(' | '),
  ).toBe(true);
  // Nothing failed, so there is nothing to recover from.
  expect(said.some((t) => t.includes("Can't reach"))).toBe(false);
});

for (const drop of ['before', 'after'] as const) {
  test(`POST /uploads dropped ${drop} it took effect: the upload is retried and ends ready`, async ({
    studio,
    sandbox,
    page,
  }) => {
    const form = await studio.openModel('Upscale Pro', 'image/default');
    const group = form.getByRole('group', { name: 'Image to upscale' });
    await sandbox.fault({ method: 'POST', path: '/v1/uploads', drop, count: 2 });
    await group.getByLabel('Upload file', { exact: true }).setInputFiles(await png(240, 160, 'flaky.png'));
    await expect(group.getByRole('status')).toContainText('flaky.png is ready.');
    expect(await uploadRequests(sandbox), 'the dropped uploads and the retry').toBeGreaterThanOrEqual(3);
    // The value is a working service URL of the whole file.
    const body = await studio.requestBody();
    const url = (body.params as Record<string, string>).image!;
    expect(url.startsWith(`${SANDBOX_ORIGIN}/cdn/uploads/`)).toBe(true);
    expect(pngSize(await (await page.request.get(url)).body())).toEqual({ width: 240, height: 160 });
    await expectRecoveryTold(page, /Can't reach the service/);
  });
}

test('the API unreachable for 30 s while tasks are polled: told, then back with its state', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  test.setTimeout(150_000);
  await studio.openModel('Lumen Canvas', 'image/default');
  const before = await sandbox.balance();

  const polled = uniquePrompt('in flight when the API went away');
  await studio.prompt.fill(polled);
  const credits = await sandbox.agreedQuote(studio);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued: see History.' })).toBeVisible();

  // Connections refused from now on, for 30 s; the sandbox keeps its state.
  await sandbox.outage(30_000);
  const wentAway = Date.now();

  await expect(page.getByRole('status', { name: 'Connection' })).toContainText("Can't reach the service", {
    timeout: 20_000,
  });
  // A click meanwhile is kept in the outbox, not lost.
  const waiting = uniquePrompt('clicked while the API was away');
  await studio.prompt.fill(waiting);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(history.region.getByTestId('sending-card')).toContainText(waiting, { timeout: 20_000 });
  await expect(history.opener(history.card(polled))).not.toHaveAccessibleDescription(/^succeeded\b/);
  expect(Date.now() - wentAway, 'still inside the outage').toBeLessThan(30_000);

  // Back: the first answer ends the outage for every task: the polled one is read at once, not at the end
  // of its back-off (up to 15 s), and the waiting click is re-sent. Both finish, each charged once.
  await expect(page.getByRole('status', { name: 'Connection' })).toContainText('answering again', {
    timeout: 60_000,
  });
  await history.expectStatus(history.card(polled), 'succeeded', 5_000);
  await history.expectStatus(history.card(waiting), 'succeeded', 90_000);
  await expect(history.region.getByTestId('sending-card')).toHaveCount(0);
  await expect(history.cards).toHaveCount(2);
  await expect(page.getByRole('status', { name: 'Connection' })).not.toContainText("Can't reach");
  const said = await connectionLine(page);
  expect(
    said.some((t) => t.includes('answering again')),
    said.join(' | '),
  ).toBe(true);
  const posts = (await sandbox.requests()).filter((r) => isTaskPost(r) && r.status === 200);
  expect(posts, 'one accepted POST /tasks per click').toHaveLength(2);
  expect(await sandbox.balance()).toBe(before - 2 * credits);
});

const isPoll = (r: { method: string; path: string }) =>
  r.method === 'GET' && /^\/v1\/tasks\/[^/]+$/.test(r.path);

test('a 429 with Retry-After on polling is waited out, and no other 429 follows', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  await sandbox.fault({ method: 'GET', path: '/v1/tasks/*', status: 429, retryAfter: 2, count: 1 });

  const prompts = [uniquePrompt('polled through a 429'), uniquePrompt('polled beside it')];
  const generate = page.getByRole('button', { name: 'Generate', exact: true });
  for (const prompt of prompts) {
    await studio.prompt.fill(prompt);
    await expect(generate).toBeEnabled();
    await generate.click();
    await expect(page.getByRole('status').filter({ hasText: 'Queued: see History.' })).toBeVisible();
  }
  for (const prompt of prompts) await history.expectStatus(history.card(prompt), 'succeeded');

  const polls = (await sandbox.requests()).filter(isPoll);
  const limited = polls.filter((r) => r.status === 429);
  expect(limited, 'only the injected 429').toHaveLength(1);
  // Nothing polled again before the Retry-After was over, but a poll of the other task already on its way
  // when the 429 was answered (sent before the studio read it: it reaches the sandbox a few ms later).
  const at429 = Date.parse(limited[0]!.at);
  const during = polls.filter((r) => Date.parse(r.at) > at429 && Date.parse(r.at) < at429 + 2_000);
  expect(during.length, 'at most the other task’s poll in flight').toBeLessThanOrEqual(prompts.length - 1);
  for (const r of during) expect(Date.parse(r.at) - at429, 'in flight, not sent after').toBeLessThan(250);
  expect(
    polls.find((r) => Date.parse(r.at) >= at429 + 2_000),
    'a poll after the Retry-After',
  ).toBeDefined();
  // And every poll of the whole run was answered.
  expect(polls.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  for (const prompt of prompts) {
    const task = await sandbox.task(await history.taskIdOf(history.card(prompt)));
    expect(task.status).toBe('succeeded');
  }
});

// Chromium re-sends a request once by itself when a kept-alive connection closes without an answer
// (above), and the page never learns of the first send. When that first send took effect and the
// browser's own re-send is refused before the service reads its key (a 429 or a 503), the refusal is all
// the page sees, yet the task exists and is charged. The soak met it: a dropped connection left pending
// from one minute's faults, then the next minute's 503s or 429 storm.
for (const refusal of [
  { status: 429, retryAfter: 1 },
  { status: 503, retryAfter: undefined },
] as const) {
  test(`a task whose POST took effect, then answered ${refusal.status} on the browser's own re-send, is in the History once the service answers: one task, one charge`, async ({
    studio,
    sandbox,
    page,
  }) => {
    test.setTimeout(90_000);
    const history = new History(page);
    await studio.openModel('Lumen Canvas', 'image/default');
    const prompt = uniquePrompt(`created, then refused ${refusal.status}`);
    await studio.prompt.fill(prompt);
    const credits = await sandbox.agreedQuote(studio);
    const before = await sandbox.balance();
    const failedPosts: string[] = [];
    page.on('requestfailed', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/tasks') failedPosts.push(r.url());
    });

    await sandbox.fault({ method: 'POST', path: '/v1/tasks', drop: 'after', count: 1 });
    await sandbox.fault({
      method: 'POST',
      path: '/v1/tasks',
      status: refusal.status,
      ...(refusal.retryAfter === undefined ? {} : { retryAfter: refusal.retryAfter }),
      // The browser's re-send and the studio's three retries (api-notes §7): every answer the page gets
      // to this click is the refusal.
      count: 4,
    });
    await page.getByRole('button', { name: 'Generate', exact: true }).click();

    // What happened: the first POST made the task; the page saw no failed connection, only refusals.
    await expect
      .poll(async () => (await sandbox.requests()).filter(isTaskPost).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(5);
    const posts = (await sandbox.requests()).filter(isTaskPost);
    expect(posts[0]!.created?.prompt, 'the first POST created the task').toBe(prompt);
    expect(posts.slice(1, 5).map((p) => p.status)).toEqual([
      refusal.status,
      refusal.status,
      refusal.status,
      refusal.status,
    ]);
    expect(failedPosts, 'the browser re-sent the dropped POST by itself').toEqual([]);

    // The paid task is not lost: re-sent with its key, the service answers with it.
    const card = history.card(prompt);
    await history.expectStatus(card, 'succeeded', 60_000);
    await expect(history.cards).toHaveCount(1);
    expect(await history.taskIdOf(card)).toBe(posts[0]!.created!.taskId);
    expect(await sandbox.balance(), 'charged exactly once').toBe(before - credits);
  });
}
