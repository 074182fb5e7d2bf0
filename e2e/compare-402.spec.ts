import type { Page } from '@playwright/test';
import { expect, test, type Sandbox } from './fixtures';
import { TASK_TIMEOUT, uniquePrompt } from './task-helpers';

// Charged once per cell (docs/queue.md): Compare sends six cells through the queue on the personal key,
// whose pool runs three at once; the service refuses the fourth send once with 402. The queue takes that
// task back, held, and pauses: the board shows the queue's truth (held, paused, why) and offers what the
// queue offers, never a Rerun beside a task that will still go. Resumed, each cell's task is created once:
// six tasks, six charges.

const compareRegion = (page: Page) => page.getByRole('region', { name: 'Compare', exact: true });

const createdTasks = async (sandbox: Sandbox) =>
  (await sandbox.requests()).flatMap((r) =>
    r.method === 'POST' && r.path === '/v1/tasks' && r.created ? [r.created.taskId] : [],
  );

test('six cells on a pool of three, the fourth refused once with 402: held, no Rerun; resumed, six tasks charged', async ({
  studio,
  page,
  sandbox,
}) => {
  test.setTimeout(120_000);
  await studio.start('personal');
  const before = await sandbox.balance();
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = compareRegion(page);
  await expect(board).toBeVisible();
  for (const label of ['Lumen Canvas · v2', 'Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
    await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill(uniquePrompt('charged once a'));
  await board.getByRole('button', { name: 'Add prompt' }).click();
  await board.getByLabel('Prompt 2', { exact: true }).fill(uniquePrompt('charged once b'));

  // The first three creates go through as usual (a fault of a 1 ms wait), the fourth is refused with 402.
  await sandbox.fault({ method: 'POST', path: '/v1/tasks', count: 3, delayMs: 1 });
  await sandbox.fault({ method: 'POST', path: '/v1/tasks', count: 1, status: 402 });
  await board.getByRole('button', { name: /^Run all/ }).click();

  // The refusal paused the queue: the refused cell is held, says why, and offers what the queue offers
  // (the cells sent before the pause run on; any not sent yet are held too).
  const resumeButtons = board.getByRole('button', { name: 'Resume queue' });
  await expect(resumeButtons.first()).toBeVisible({ timeout: TASK_TIMEOUT });
  const statuses = board.getByTestId('cell-status');
  await expect
    .poll(async () => (await statuses.allTextContents()).every((s) => s === 'succeeded' || s === 'held'), {
      timeout: TASK_TIMEOUT,
    })
    .toBe(true);
  const held = (await statuses.allTextContents()).filter((s) => s === 'held').length;
  expect(held).toBeGreaterThanOrEqual(1);
  await expect(resumeButtons).toHaveCount(held);
  await expect(board.getByRole('button', { name: 'Remove from queue' })).toHaveCount(held);
  await expect(board.getByText(/^Held in your queue; nothing is charged yet\. Paused: /)).toHaveCount(held);
  // No Rerun beside a task that is still held, and Run all has nothing to send again.
  await expect(board.getByRole('button', { name: 'Rerun' })).toHaveCount(0);
  await expect(board.getByRole('button', { name: /^Run all/ })).toBeDisabled();
  expect(await createdTasks(sandbox)).toHaveLength(6 - held);

  // Resume (from a cell): the held tasks go with their keys, each once.
  await resumeButtons.first().click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(6, { timeout: 30_000 });
  const created = await createdTasks(sandbox);
  expect(created).toHaveLength(6);
  expect(new Set(created).size).toBe(6);
  // Charged six times, no more: the balance fell by what the six tasks were charged.
  let charged = 0;
  for (const taskId of created) charged += (await sandbox.task(taskId)).creditsCharged ?? 0;
  expect(charged).toBeGreaterThan(0);
  expect(await sandbox.balance()).toBe(before - charged);
  await expect(board.getByRole('button', { name: 'Rerun' })).toHaveCount(0);
});
