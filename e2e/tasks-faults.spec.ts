import { creditsText, expect, test } from './fixtures';
import { History, SandboxApi, expectImageLoaded, uniquePrompt } from './task-helpers';

// PRODUCT 3 "Submit" and "History and gallery" when the network or the service misbehaves: a lost
// answer never costs twice, and a 429 on polling is waited out rather than hammered.

test.beforeEach(async ({ studio }) => {
  await studio.goto();
  await studio.connect('personal');
});

const isPoll = (r: { method: string; path: string }) =>
  r.method === 'GET' && /^\/v1\/tasks\/[^/]+$/.test(r.path);

test('one click whose answer is lost makes one task and one charge', async ({
  studio,
  sandbox,
  page,
  request,
  demoKeys,
}) => {
  const history = new History(page);
  const api = new SandboxApi(request, demoKeys);
  await studio.openModel('Lumen Canvas', 'image/default');
  const prompt = uniquePrompt('the answer to this one is lost');
  await studio.prompt.fill(prompt);
  const { credits } = await sandbox.quote(await studio.requestBody());
  expect(credits).toBeGreaterThan(0);
  // Settled, so the price the studio quotes is the one paid.
  await expect(studio.quote.getByTestId('quote-credits')).toHaveText(creditsText(credits));
  const before = await api.balance();

  // The service creates and charges the task, then the connection drops before the answer.
  await api.fault({ method: 'POST', path: '/v1/tasks', drop: 'after', count: 1 });
  await page.getByRole('button', { name: 'Generate', exact: true }).click();

  const card = history.card(prompt);
  await history.expectStatus(card, 'succeeded');
  await expectImageLoaded(card.getByRole('img', { name: prompt }));
  await expect(history.cards).toHaveCount(1);
  await expect(history.region.getByText('1 task', { exact: true })).toBeVisible();

  // The studio sent it again (same Idempotency-Key), and the service answered with the same task.
  const posts = (await sandbox.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/tasks');
  expect(posts.length, 'the lost POST /tasks and its re-send').toBe(2);
  expect(await api.balance()).toBe(before - credits);
  const task = await api.task(await history.taskIdOf(card));
  expect(task.creditsCharged).toBe(credits);
});

test('a 429 with Retry-After on polling is waited out, and no other 429 follows', async ({
  studio,
  sandbox,
  page,
  request,
  demoKeys,
}) => {
  const history = new History(page);
  const api = new SandboxApi(request, demoKeys);
  await studio.openModel('Lumen Canvas', 'image/default');
  await api.fault({ method: 'GET', path: '/v1/tasks/*', status: 429, retryAfter: 2, count: 1 });

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
  // Nothing polled again before the Retry-After was over.
  const at429 = Date.parse(limited[0]!.at);
  const next = polls.find((r) => Date.parse(r.at) > at429);
  expect(next, 'a poll after the 429').toBeDefined();
  expect(Date.parse(next!.at) - at429).toBeGreaterThanOrEqual(2_000);
  // And every poll of the whole run was answered.
  expect(polls.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  for (const prompt of prompts) {
    const task = await api.task(await history.taskIdOf(history.card(prompt)));
    expect(task.status).toBe('succeeded');
  }
});
