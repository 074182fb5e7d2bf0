import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { creditsText, expect, test, type DemoKeyName, type Sandbox, type Studio } from './fixtures';
import { History, TASK_TIMEOUT, disconnect, generate, uniquePrompt } from './task-helpers';

// product-notes §3, usage: where the credits went, from this device's history. The totals must equal what the
// sandbox charged (its GET /me spend and its tasks' creditsCharged), the chart has its table, the CSV
// has one line per task, and every key used on this device has its line (by label, never the key).

const usage = (page: Page) =>
  page.getByRole('main').filter({ has: page.getByRole('heading', { name: 'Usage' }) });

const spentToday = async (sandbox: Sandbox, key: DemoKeyName) =>
  (await sandbox.me(key)).key.creditsSpentToday;

async function runTasks(studio: Studio, page: Page, model: string, prompts: string[]) {
  const history = new History(page);
  await studio.openModel(model);
  for (const prompt of prompts) await generate(studio, prompt);
  for (const prompt of prompts)
    await history.expectStatus(
      history.card(prompt),
      prompt.includes('[fail]') ? 'failed' : 'succeeded',
      TASK_TIMEOUT,
    );
  return history;
}

test('Usage totals equal the credits the sandbox charged; per model, chart table, CSV, reload, per key', async ({
  studio,
  sandbox,
  page,
  demoKeys,
}, testInfo) => {
  test.setTimeout(120_000);
  await studio.start('personal');
  const lumen = [uniquePrompt('a lighthouse'), uniquePrompt('a harbour'), uniquePrompt('this breaks [fail]')];
  const history = await runTasks(studio, page, 'Lumen Canvas', lumen);
  const aurora = [uniquePrompt('a glacier')];
  await runTasks(studio, page, 'Aurora XL', aurora);

  // What the sandbox charged: its tasks' creditsCharged, and the key's spend today (GET /me).
  let charged = 0;
  for (const prompt of [...lumen, ...aurora]) {
    const task = await sandbox.task(await history.taskIdOf(history.card(prompt)));
    charged += task.creditsCharged ?? 0;
  }
  expect(charged).toBeGreaterThan(0);
  expect(await spentToday(sandbox, 'personal')).toBe(charged);

  const usageButton = page.getByRole('button', { name: 'Usage', exact: true });
  await usageButton.click();
  await expect(usageButton).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]view=usage\b/);
  const view = usage(page);
  await expect(view.getByTestId('usage-credits')).toHaveText(creditsText(charged));
  await expect(view.getByTestId('usage-tasks')).toHaveText('4');
  await expect(view.getByTestId('usage-outputs')).toHaveText('3');
  await expect(view.getByTestId('usage-today')).toHaveText(creditsText(charged));

  // Per model: Lumen Canvas failed one task of three.
  const perModel = view.getByRole('table', { name: /^Usage per model/ });
  const lumenRow = perModel.getByRole('row').filter({ hasText: 'Lumen Canvas' });
  await expect(lumenRow).toHaveCount(1);
  await expect(lumenRow.getByRole('cell').nth(0)).toHaveText('3');
  await expect(lumenRow.getByRole('cell').nth(2)).toHaveText('33%');
  await expect(perModel.getByRole('row').filter({ hasText: 'Aurora XL' })).toHaveCount(1);

  // The chart is one image with a summary, and its table has today's credits.
  await expect(
    view.getByRole('img', { name: /^Credits per day, last 30 days: bar chart of 30 days/ }),
  ).toBeVisible();
  const dayTable = view.getByRole('table', { name: /^Credits per day/ });
  await expect(dayTable.getByRole('row')).toHaveCount(31);
  await view.getByRole('button', { name: 'Show as a table' }).click();
  await expect(dayTable).toBeVisible();
  await expect(dayTable.getByRole('row').nth(1).getByRole('cell').last()).toHaveText(creditsText(charged));

  // The CSV: one line per task, the credits add up to the same total, the key by its label only.
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^usage .*\.csv$/);
  const path = testInfo.outputPath('usage.csv');
  await file.saveAs(path);
  const csv = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  expect(csv).not.toContain(demoKeys.personal!);
  const lines = csv.trim().split('\r\n');
  expect(lines).toHaveLength(5);
  const header = lines[0]!.split(',');
  const creditsColumn = header.indexOf('credits_charged');
  const sum = lines.slice(1).reduce((a, line) => a + Number(line.split(',')[creditsColumn]), 0);
  expect(sum).toBe(charged);
  expect(lines[1]).toContain('Personal key');

  // The view is in the URL: a reload reopens it.
  await page.reload();
  await expect(usage(page).getByTestId('usage-credits')).toHaveText(creditsText(charged));

  // Another key on this device: its own line, by its label; the first key's line stays, by its label.
  await disconnect(studio);
  await studio.connect('personal2');
  // The URL still names the view: it opens on the new key's usage, which has nothing yet.
  await expect(usage(page).getByTestId('usage-credits')).toHaveText(creditsText(0));
  await page.getByRole('button', { name: 'Usage', exact: true }).click();
  await runTasks(studio, page, 'Lumen Canvas', [uniquePrompt('a second key')]);
  const second = await spentToday(sandbox, 'personal2');
  await page.getByRole('button', { name: 'Usage', exact: true }).click();
  await expect(usage(page).getByTestId('usage-credits')).toHaveText(creditsText(second));
  const perKey = usage(page).getByRole('table', { name: /^Usage per key/ });
  await expect(perKey.getByRole('row')).toHaveCount(3);
  await expect(perKey.getByRole('row').filter({ hasText: 'Laptop key' })).toContainText('(this key)');
  await expect(perKey.getByRole('row').filter({ hasText: 'Personal key' })).toContainText(
    creditsText(charged),
  );
  expect(await page.content()).not.toContain(demoKeys.personal!);
});

test('the daily cap: today’s spend against the cap of a capped key', async ({ studio, sandbox, page }) => {
  await studio.start('capped');
  const prompt = uniquePrompt('a small poster');
  await runTasks(studio, page, 'Lumen Canvas', [prompt]);
  const spent = await spentToday(sandbox, 'capped');
  expect(spent).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Usage', exact: true }).click();
  const view = usage(page);
  await expect(view.getByTestId('usage-cap')).toHaveText(`${spent} / 50`);
  await expect(view.getByRole('meter', { name: 'Spent today, against the daily cap' })).toHaveAttribute(
    'value',
    String(spent),
  );
  await page.screenshot({ path: test.info().outputPath('usage.png'), fullPage: true });
});
