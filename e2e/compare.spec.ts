import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { Studio, creditsText, expect, test } from './fixtures';
import { pngSize, pngTextChunks } from './media-helpers';
import { storedRecords } from './stored';

// product-notes §3 "Compare": one prompt through several models, side by side, with the total
// quote before running, one task per cell, a contact sheet, saved boards and shareable setups.

const compareRegion = (page: Page) => page.getByRole('region', { name: 'Compare', exact: true });

async function openCompare(page: Page) {
  await page.getByRole('button', { name: /^Compare/ }).click();
  await expect(compareRegion(page)).toBeVisible();
  return compareRegion(page);
}

async function addModels(page: Page, labels: string[]) {
  for (const label of labels)
    await compareRegion(page).getByRole('combobox', { name: 'Add model' }).selectOption({ label });
}

const cells = (page: Page) => compareRegion(page).locator('[data-cell-state]');

test('three image models on two prompts: total quote, six cells, contact sheet, reload, shared link', async ({
  studio,
  page,
  sandbox,
  browser,
  demoKeys,
}, testInfo) => {
  await studio.start('personal');
  const board = await openCompare(page);
  await addModels(page, ['Lumen Canvas · v2', 'Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1']);
  const prompts = ['A lighthouse on a cliff at dusk', 'A bowl of ramen, top view'];
  await board.getByLabel('Prompt 1', { exact: true }).fill(prompts[0]!);
  await board.getByRole('button', { name: 'Add prompt' }).click();
  await board.getByLabel('Prompt 2', { exact: true }).fill(prompts[1]!);

  // The total is the sum of each cell's quote, asked of the service here too.
  const versions = [
    ['lumen-canvas', 'lumen-canvas-v2'],
    ['northwind-aurora', 'northwind-aurora-1'],
    ['pixelmoss-pop', 'pixelmoss-pop-1'],
  ] as const;
  const perColumn: number[] = [];
  for (const [interfaceId, versionId] of versions) {
    let sum = 0;
    for (const prompt of prompts)
      sum += (await sandbox.quote({ interfaceId, versionId, params: { prompt } })).credits;
    perColumn.push(sum);
  }
  const total = perColumn.reduce((a, b) => a + b, 0);
  await expect(board.getByTestId('compare-total')).toHaveText(creditsText(total));
  await expect(board.getByTestId('column-quote')).toHaveText(perColumn.map(creditsText));

  await board.getByRole('button', { name: /^Run all/ }).click();
  await expect(cells(page)).toHaveCount(6);
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(6, { timeout: 30_000 });
  // The Boards list beside it follows the board, without a reload.
  await expect(
    page.getByRole('navigation', { name: 'Boards' }).locator('button[aria-current="true"]'),
  ).toContainText('3 models · 2 prompts');
  const costs = await board.getByTestId('cell-cost').allTextContents();
  expect(costs).toHaveLength(6);
  expect(new Set(costs).size).toBe(3);
  await expect(board.getByRole('img', { name: /^Result of / })).toHaveCount(6);

  // The contact sheet: a PNG of 3 columns x 2 rows (layout of contact-sheet.ts).
  const download = page.waitForEvent('download');
  await board.getByRole('button', { name: 'Export contact sheet' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\(3x2\)\.png$/);
  const path = testInfo.outputPath('sheet.png');
  await file.saveAs(path);
  const sheet = await readFile(path);
  const [pad, title, header, label, tile, caption, gap] = [24, 40, 52, 220, 256, 48, 12];
  expect(pngSize(sheet)).toEqual({
    width: pad * 2 + label + 3 * (tile + gap),
    height: pad * 2 + title + header + 2 * (tile + caption + gap),
  });
  // What made each picture travels in the sheet: every cell's model and its task's recipe.
  const sheetRecipe = JSON.parse(pngTextChunks(sheet).get('media-studio:contact-sheet') ?? 'null') as {
    rows: Array<{
      prompt: string;
      cells: Array<{ model: string; recipe: { taskId: string; prompt: string } | null }>;
    }>;
  };
  expect(sheetRecipe.rows.map((r) => r.prompt)).toEqual(prompts);
  const recipes = sheetRecipe.rows.flatMap((r) => r.cells.map((c) => c.recipe));
  expect(recipes.every((r) => r !== null && /^task_/.test(r.taskId))).toBe(true);
  expect(new Set(recipes.map((r) => r!.taskId)).size).toBe(6);
  expect(sheet.toString('latin1')).not.toContain(demoKeys.personal!);

  // Reload: the URL names the board, IndexedDB has it, the history has its tasks.
  await page.reload();
  await expect(compareRegion(page)).toBeVisible();
  await expect(compareRegion(page).locator('[data-cell-state="succeeded"]')).toHaveCount(6);
  await expect(compareRegion(page).getByLabel('Prompt 2', { exact: true })).toHaveValue(prompts[1]!);
  await expect(
    page.getByRole('navigation', { name: 'Boards' }).getByRole('button', { name: /^Board · / }),
  ).toHaveCount(1);

  // The shared link carries the setup, never the key: a new context (no storage) gets the same setup.
  await compareRegion(page).getByRole('button', { name: 'Share link' }).click();
  const link = await compareRegion(page).getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).not.toContain(demoKeys.personal!);
  const other = await browser.newContext();
  const page2 = await other.newPage();
  const studio2 = new Studio(page2, demoKeys);
  await page2.goto(link);
  await studio2.connect('personal');
  const shared = compareRegion(page2);
  await expect(shared.getByRole('list', { name: 'Chosen models' }).getByRole('listitem')).toHaveText([
    'Lumen Canvas · v2',
    'Aurora XL · Aurora XL 1.0',
    'Pop Diffusion · Pop 1',
  ]);
  await expect(shared.getByLabel('Prompt 1', { exact: true })).toHaveValue(prompts[0]!);
  await expect(shared.getByLabel('Prompt 2', { exact: true })).toHaveValue(prompts[1]!);
  await expect(shared.getByTestId('compare-total')).toHaveText(creditsText(total));
  await other.close();
});

test('a contact sheet opened with "Open recipe" lists its pictures, and "Use this recipe" reopens the form of the one chosen', async ({
  studio,
  page,
}, testInfo) => {
  await studio.start('personal');
  const board = await openCompare(page);
  await addModels(page, ['Lumen Canvas · v2', 'Aurora XL · Aurora XL 1.0']);
  const prompt = 'A windmill in a tulip field';
  await board.getByLabel('Prompt 1', { exact: true }).fill(prompt);
  await board.getByRole('button', { name: /^Run all/ }).click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
  const download = page.waitForEvent('download');
  await board.getByRole('button', { name: 'Export contact sheet' }).click();
  const path = testInfo.outputPath('sheet.png');
  await (await download).saveAs(path);

  // Back on Create, with another model's form open.
  await page.getByRole('button', { name: /^Compare/ }).click();
  await expect(compareRegion(page)).toBeHidden();
  await studio.openModel('Pop Diffusion');
  await studio.prompt.fill('something else entirely');
  await page.getByTestId('open-recipe-input').setInputFiles(path);
  const dialog = page.getByRole('dialog', { name: 'Recipe' });
  const row = dialog.getByRole('group', { name: prompt });
  await expect(row.getByRole('radio')).toHaveCount(2);
  await expect(row.getByRole('radio', { name: 'Lumen Canvas lumen-canvas-v2' })).toBeChecked();
  await row.getByRole('radio', { name: 'Aurora XL northwind-aurora-1' }).check();
  await expect(dialog.getByTestId('recipe-fields')).toContainText('northwind-aurora, northwind-aurora-1');
  await dialog.getByRole('button', { name: 'Use this recipe', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(studio.form('Aurora XL')).toBeVisible();
  await expect(studio.prompt).toHaveValue(prompt);
  expect(await studio.requestBody()).toMatchObject({
    interfaceId: 'northwind-aurora',
    versionId: 'northwind-aurora-1',
    params: { prompt },
  });
});

test('two audio models play side by side', async ({ studio, page }) => {
  await studio.start('personal');
  const board = await openCompare(page);
  await board.getByRole('combobox', { name: 'Board category' }).selectOption('audio/sound-effect');
  await addModels(page, ['Foley · Foley 1', 'Blips · Blips 1']);
  await board.getByLabel('Prompt 1', { exact: true }).fill('a door creaking open');
  await board.getByRole('button', { name: /^Run all/ }).click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
  await board.getByRole('button', { name: 'Play all' }).click();
  await expect
    .poll(() =>
      board
        .locator('audio')
        .evaluateAll((all) => (all as HTMLAudioElement[]).map((a) => !a.paused && a.currentTime > 0)),
    )
    .toEqual([true, true]);
});

test('a model is added to the comparison from its form', async ({ studio, page }) => {
  await studio.start('personal');
  await studio.openModel('Aurora XL', 'image/default');
  await page.getByRole('button', { name: /^Add to comparison/ }).click();
  await studio.openModel('Pop Diffusion', 'image/default');
  await page.getByRole('button', { name: /^Add to comparison/ }).click();
  const board = await openCompare(page);
  await expect(board.getByRole('list', { name: 'Chosen models' }).getByRole('listitem')).toHaveText([
    'Aurora XL · Aurora XL 1.0',
    'Pop Diffusion · Pop 1',
  ]);
});

test('a new board with only its name typed is saved: after a reload it is in the Boards list', async ({
  studio,
  page,
}) => {
  await studio.start('personal');
  const board = await openCompare(page);
  await board.getByLabel('Board name', { exact: true }).fill('Named, nothing else');
  await expect(page).toHaveURL(/compare=[0-9a-f-]{36}/);
  // On disk before the reload (what a person reloading a moment later relies on).
  await expect
    .poll(async () => ((await storedRecords(page, 'boards')) as Array<{ name: string }>).map((b) => b.name))
    .toEqual(['Named, nothing else']);

  await page.reload();
  await expect(
    page.getByRole('navigation', { name: 'Boards' }).getByRole('button', { name: /^Named, nothing else/ }),
  ).toBeVisible();
  await expect(compareRegion(page).getByLabel('Board name', { exact: true })).toHaveValue(
    'Named, nothing else',
  );
});

test('a failed cell reruns alone; favourites and notes are kept; a board can be deleted', async ({
  studio,
  sandbox,
  page,
}) => {
  await studio.start('personal');
  const board = await openCompare(page);
  await addModels(page, ['Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1']);
  // The sandbox fails a task whose prompt has [fail] (product-notes §4): both cells fail, and are refunded.
  await board.getByLabel('Prompt 1', { exact: true }).fill('a red kite [fail]');
  await board.getByRole('button', { name: /^Run all/ }).click();
  await expect(board.locator('[data-cell-state="failed"]')).toHaveCount(2, { timeout: 30_000 });
  await expect(board.getByRole('button', { name: /^Run all/ })).toBeEnabled();

  // Rerun one cell: one new POST /tasks, for that cell only.
  const posts = async () =>
    (await sandbox.requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/tasks')).length;
  const before = await posts();
  const popCell = board.getByRole('group', { name: 'Pop Diffusion Pop 1, prompt 1' });
  await popCell.getByRole('button', { name: 'Rerun' }).click();
  await expect(popCell.getByTestId('cell-status')).toHaveText('failed', { timeout: 30_000 });
  expect(await posts()).toBe(before + 1);

  await popCell.getByRole('button', { name: 'Favourite' }).click();
  await popCell.getByRole('button', { name: 'Note' }).click();
  await popCell.getByRole('textbox', { name: 'Note on Pop Diffusion Pop 1, prompt 1' }).fill('too dark');
  await board.getByLabel('Board name', { exact: true }).fill('Kites');
  await expect(page).toHaveURL(/compare=[0-9a-f-]{36}/);
  // On disk before the reload (what a person reloading a moment later relies on).
  await expect
    .poll(async () => {
      const boards = (await storedRecords(page, 'boards')) as Array<{
        name: string;
        notes: Record<string, string>;
        favourites: object;
      }>;
      const b = boards.find((x) => x.name === 'Kites');
      return b ? `${Object.values(b.notes).join()}|${Object.keys(b.favourites).length}` : '';
    })
    .toBe('too dark|1');

  await page.reload();
  const again = compareRegion(page);
  const cell = again.getByRole('group', { name: 'Pop Diffusion Pop 1, prompt 1' });
  await expect(cell.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
  await expect(cell.getByRole('textbox', { name: /^Note on/ })).toHaveValue('too dark');

  // No confirm box: deleted at once, with Undo in the notice.
  await page
    .getByRole('navigation', { name: 'Boards' })
    .getByRole('button', { name: 'Delete board Kites' })
    .click();
  await expect(
    page.getByRole('navigation', { name: 'Boards' }).getByRole('button', { name: /Kites/ }),
  ).toHaveCount(0);
  await expect(page.getByText('Deleted the board “Kites”. Its tasks stay in the history.')).toBeVisible();
});

test('beside a long board, the Boards list stays in view as the page scrolls', async ({ studio, page }) => {
  await page.setViewportSize({ width: 1280, height: 700 });
  await studio.start('personal');
  const board = await openCompare(page);
  await addModels(page, ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1']);
  for (let n = 2; n <= 4; n++) await board.getByRole('button', { name: 'Add prompt' }).click();
  await expect(board.getByLabel('Prompt 4', { exact: true })).toBeVisible();
  const boards = page.getByRole('navigation', { name: 'Boards' });
  const scrolled = await page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    return window.scrollY;
  });
  expect(scrolled).toBeGreaterThan(300); // the board is longer than the window
  await expect(boards.getByRole('button', { name: 'New board' })).toBeInViewport();
  const box = await boards.boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(56); // below the sticky header, not under it
});
