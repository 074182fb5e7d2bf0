import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe-helpers';
import { expect, test, type Sandbox, type Studio } from './fixtures';
import { TASK_TIMEOUT, uniquePrompt, type History } from './task-helpers';

// "Your queue" (product-notes §3): tasks held on this device are not sent and not charged until the
// queue lets them go; removed ones never are; they go in the queue's order; a reload loses none and
// sends none twice.

const queueRegion = (page: Page) => page.getByRole('region', { name: 'Queue', exact: true });
const heldItems = (page: Page) =>
  queueRegion(page).getByRole('list', { name: 'Held tasks' }).getByRole('listitem');
const heldItem = (page: Page, prompt: string) => heldItems(page).filter({ hasText: prompt });

/** Types a prompt and clicks Generate while the queue is paused: the task is held, not sent. */
async function generateHeld(studio: Studio, prompt: string): Promise<void> {
  await studio.prompt.fill(prompt);
  await studio.page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(heldItem(studio.page, prompt)).toBeVisible();
}

const postsOfTasks = async (sandbox: Sandbox) =>
  (await sandbox.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/tasks');

/** The prompts of the tasks the sandbox made, in the order their POST /tasks reached it (its request log). */
const promptsReceived = async (sandbox: Sandbox) =>
  (await postsOfTasks(sandbox)).flatMap((r) => (r.created ? [r.created.prompt] : []));

async function pauseQueue(page: Page): Promise<void> {
  await queueRegion(page).getByRole('button', { name: 'Pause queue' }).click();
  await expect(queueRegion(page).getByRole('button', { name: 'Resume queue' })).toBeVisible();
}

async function expectSucceeded(history: History, prompts: readonly string[]): Promise<void> {
  for (const p of prompts) await history.expectStatus(history.card(p), 'succeeded', TASK_TIMEOUT);
}

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas', 'image/default');
});

test('paused: five clicks charge nothing; two removed; resumed: three charged', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  const prompts = [1, 2, 3, 4, 5].map((n) => uniquePrompt(`queued ${n}`));
  await studio.prompt.fill(prompts[0]!);
  const credits = await sandbox.agreedQuote(studio);
  const before = await sandbox.balance();

  await pauseQueue(page);
  for (const p of prompts) await generateHeld(studio, p);
  await expect(heldItems(page)).toHaveCount(5);
  // Held, so never sent: the service has no request and the balance is whole.
  expect(await postsOfTasks(sandbox)).toHaveLength(0);
  expect(await sandbox.balance()).toBe(before);
  // History shows them as held, with their place, not as a service status.
  await expect(history.region.getByTestId('held-card')).toHaveCount(5);
  await expect(history.region.getByText('Held · place 1', { exact: true })).toBeVisible();

  for (const p of [prompts[1]!, prompts[3]!]) {
    // By keyboard: the first removal's notice slides in over the list's foot, and a click timed with
    // its arrival lands on the notice (a fresh-clone run's flaky failure), not on the button.
    await heldItem(page, p).getByRole('button', { name: 'Remove', exact: true }).press('Enter');
    await expect(heldItem(page, p)).toHaveCount(0);
  }
  // The notice offers Undo for what was removed.
  await expect(page.getByRole('button', { name: 'Undo' }).first()).toBeVisible();
  await expect(heldItems(page)).toHaveCount(3);

  await queueRegion(page).getByRole('button', { name: 'Resume queue' }).click();
  const kept = [prompts[0]!, prompts[2]!, prompts[4]!];
  await expectSucceeded(history, kept);
  await expect(heldItems(page)).toHaveCount(0);
  expect(await postsOfTasks(sandbox)).toHaveLength(3);
  expect(await sandbox.balance()).toBe(before - 3 * credits);
  for (const p of [prompts[1]!, prompts[3]!]) await expect(history.card(p)).toHaveCount(0);
});

test('after a reorder the service receives the tasks in the queue order', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  const [a, b, c] = ['a', 'b', 'c'].map((n) => uniquePrompt(`order ${n}`)) as [string, string, string];
  await pauseQueue(page);
  for (const p of [a, b, c]) await generateHeld(studio, p);

  // The keyboard: the last task's handle, ArrowUp twice, to the first place.
  const handle: Locator = heldItem(page, c).getByRole('button', { name: /^Move / });
  await handle.focus();
  await page.keyboard.press('ArrowUp');
  await expect(heldItems(page).nth(1)).toContainText(c);
  await page.keyboard.press('ArrowUp');
  await expect(heldItems(page).first()).toContainText(c);
  await expect(queueRegion(page).getByRole('status')).toHaveText('Moved to place 1 of 3.');

  await queueRegion(page).getByRole('button', { name: 'Resume queue' }).click();
  await expectSucceeded(history, [a, b, c]);
  // As the sandbox received them: each prompt in its log, in the order the service made the tasks.
  expect(await promptsReceived(sandbox)).toEqual([c, a, b]);
  expect(await postsOfTasks(sandbox)).toHaveLength(3);
});

test('a reload mid-queue keeps what is held, then sends each task once', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  const prompts = [1, 2, 3].map((n) => uniquePrompt(`reload queue ${n}`));
  await studio.prompt.fill(prompts[0]!);
  const credits = await sandbox.agreedQuote(studio);
  const before = await sandbox.balance();
  await pauseQueue(page);
  for (const p of prompts) await generateHeld(studio, p);

  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  // Still held after the reload, still paused, nothing sent.
  await expect(heldItems(page)).toHaveCount(3);
  expect(await postsOfTasks(sandbox)).toHaveLength(0);

  // Resumed, then reloaded again while it sends: nothing lost, nothing charged twice.
  // Listened for before the click: the first send may leave within the click's own turn.
  const sending = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/tasks'));
  await queueRegion(page).getByRole('button', { name: 'Resume queue' }).click();
  await sending;
  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  await expectSucceeded(history, prompts);
  await expect(history.cards).toHaveCount(3);
  expect(await sandbox.balance()).toBe(before - 3 * credits);
});

test('the Queue is accessible, light and dark, at 1280 px and phone width', async ({ studio, page }) => {
  // Four axe runs (two schemes, two widths) on a shared, loaded machine.
  test.setTimeout(150_000);
  await pauseQueue(page);
  for (const p of [uniquePrompt('axe one'), uniquePrompt('axe two')]) await generateHeld(studio, p);
  await queueRegion(page).scrollIntoViewIfNeeded();
  await expectNoSeriousViolations(page, 'queue with held tasks');
  await page.setViewportSize({ width: 390, height: 844 });
  await queueRegion(page).scrollIntoViewIfNeeded();
  await expectNoSeriousViolations(page, 'queue with held tasks, phone width');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('Compare: Run all with the queue paused holds every cell and sends nothing; resumed, both are sent', async ({
  page,
  sandbox,
}) => {
  await pauseQueue(page);
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  for (const label of ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1'])
    await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill(uniquePrompt('compare held'));
  await board.getByRole('button', { name: /^Run all/ }).click();
  // The queue was paused by hand: each cell says its task is held in a paused queue.
  await expect(board.getByText('Held in your queue, which is paused; nothing is charged yet.')).toHaveCount(
    2,
  );
  expect(await postsOfTasks(sandbox)).toHaveLength(0);
  // Back in the studio, the Queue holds them; resumed, each is sent once.
  await page.getByRole('button', { name: /^Compare/ }).click();
  await expect(heldItems(page)).toHaveCount(2);
  await queueRegion(page).getByRole('button', { name: 'Resume queue' }).click();
  await expect(heldItems(page)).toHaveCount(0, { timeout: TASK_TIMEOUT });
  await expect.poll(async () => (await postsOfTasks(sandbox)).length, { timeout: TASK_TIMEOUT }).toBe(2);
});

test('Compare: cells held, then removed from the Queue after a reload, are not sent and can run again', async ({
  page,
  sandbox,
  studio,
}) => {
  await pauseQueue(page);
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  for (const label of ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1'])
    await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill(uniquePrompt('compare removed'));
  await board.getByRole('button', { name: /^Run all/ }).click();
  // The queue was paused by hand: each cell says its task is held in a paused queue.
  await expect(board.getByText('Held in your queue, which is paused; nothing is charged yet.')).toHaveCount(
    2,
  );

  const boardUrl = page.url();
  // The page that held them is gone: no answer of that run can tell the board what became of them.
  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  await expect(board).toBeVisible();
  await page.getByRole('button', { name: /^Compare/ }).click();
  await expect(heldItems(page)).toHaveCount(2);
  for (let i = 0; i < 2; i++)
    await heldItems(page).first().getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(heldItems(page)).toHaveCount(0);

  // The board again, by its address (the URL names it).
  await page.goto(boardUrl);
  await expect(board).toBeVisible();
  // Never sent, so not "sending" for good: each cell says so and can run again.
  await expect(board.getByTestId('cell-status')).toHaveText(['not sent', 'not sent']);
  await expect(
    board.getByText('Not sent: removed from your queue or refused; nothing was charged.'),
  ).toHaveCount(2);
  await expect(board.getByRole('button', { name: /^Run all/ })).toBeEnabled();
  expect(await postsOfTasks(sandbox)).toHaveLength(0);
});
