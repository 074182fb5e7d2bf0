import { expect, test } from './fixtures';
import { historyFile, importHistory, seedImages } from './gallery-helpers';
import { generate, uniquePrompt } from './task-helpers';

// Search that knows params (docs/using.md "Search"): fields suggested while typed and shown as chips that
// can be removed, a malformed term shown as such and left out, "Add tag" on a selection and `tag:`, and
// "Save search": a saved search's count is what matches now, so a task finishing later is counted; tags
// and saved searches are still there after a reload.

test('search by params with suggestions and chips; tag a selection; a saved search counts a task that finishes later', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  test.slow();
  const tasks = await seedImages(sandbox, 4);
  // Two of them were made with a seed.
  for (const [i, seed] of [
    [2, 42],
    [3, 7],
  ] as const) {
    const request = tasks[i]!.request as { params: Record<string, unknown> };
    tasks[i]!.request = { ...request, params: { ...request.params, seed } };
  }
  await studio.start('personal');
  await importHistory(page, historyFile(tasks));
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const gallery = page.getByRole('main', { name: 'Gallery' });
  const tiles = gallery.getByTestId('gallery-tile');
  await expect(tiles).toHaveCount(5);

  // "se" suggests the field, Enter takes it, the value is typed: one tile, its term a chip.
  const box = gallery.getByRole('combobox', { name: 'Search prompts' });
  await box.click();
  await page.keyboard.type('se');
  await expect(gallery.getByRole('option', { name: /^seed:/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type('42');
  await expect(box).toHaveValue('seed:42');
  await expect(tiles).toHaveCount(1);
  const terms = gallery.getByRole('list', { name: 'Search terms' });
  await expect(terms.getByTestId('search-chip')).toHaveText(['seed:42']);
  await gallery.getByRole('button', { name: 'Remove seed:42' }).click();
  await expect(box).toHaveValue('');
  await expect(tiles).toHaveCount(5);

  // Values the history has none of come from the catalog: every category of the API, the models read.
  await box.fill('category:audio/mu');
  await expect(gallery.getByRole('option', { name: /^category:audio\/music/ })).toBeVisible();
  await box.fill('model:lum');
  await expect(gallery.getByRole('option', { name: /^model:"Lumen Canvas"/ })).toBeVisible();
  await box.fill('');

  // A term that cannot be read is shown as such and left out (it does not empty the gallery).
  await box.fill('rating>=x');
  await expect(terms.getByTestId('search-chip')).toHaveAttribute('data-problem', 'true');
  await expect(terms).toContainText('Needs a number');
  await expect(tiles).toHaveCount(5);
  await box.fill('');

  // Two tiles tagged at once from the selection's toolbar; `tag:` finds them.
  for (const i of [0, 1]) await tiles.nth(i).getByRole('checkbox', { name: 'Select' }).check();
  const toolbar = gallery.getByRole('toolbar', { name: 'Selection' });
  await toolbar.getByRole('button', { name: 'Add tag' }).click();
  await toolbar.getByRole('textbox', { name: 'New tag' }).fill('Hero shot');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await box.fill('tag:hero-shot');
  await expect(tiles).toHaveCount(2);

  // Saved under a name: listed with what it matches.
  await gallery.getByRole('button', { name: 'Save search' }).click();
  await gallery.getByRole('textbox', { name: 'Name of the search' }).fill('Heroes');
  await page.keyboard.press('Enter');
  const saved = gallery.getByRole('list', { name: 'Saved searches' });
  await expect(saved.getByTestId('saved-search')).toHaveCount(1);
  await expect(saved.getByRole('button', { name: /^Heroes/ })).toContainText('2');

  // A second saved search that matches nothing yet, then a task that matches it finishes.
  const prompt = uniquePrompt('a harbour at night');
  const word = prompt.split(' ').at(-1)!;
  await box.fill(word);
  await expect(gallery.getByText('No outputs match these filters')).toBeVisible();
  await gallery.getByRole('button', { name: 'Save search' }).click();
  await gallery.getByRole('textbox', { name: 'Name of the search' }).fill('Night harbours');
  await page.keyboard.press('Enter');
  await expect(saved.getByRole('button', { name: /^Night harbours/ })).toContainText('0');
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await studio.openModel('Lumen Canvas');
  await generate(studio, prompt);
  await history.expectStatus(history.card(prompt), 'succeeded');
  // In the History too: the same search box, the saved searches under it.
  await history.region.getByRole('combobox', { name: 'Search prompts' }).fill(word);
  await expect(history.region.getByTestId('history-count')).toHaveText(/^1 of \d+ tasks/);

  // After a reload the tags and both saved searches are there; the second now counts the new output.
  await page.reload();
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await gallery.getByRole('combobox', { name: 'Search prompts' }).fill('tag:hero-shot');
  await expect(tiles).toHaveCount(2);
  await gallery.getByRole('button', { name: /^Saved searches/ }).click();
  await expect(saved.getByRole('button', { name: /^Night harbours/ })).not.toContainText(/\b0\b/);
  await saved.getByRole('button', { name: /^Night harbours/ }).click();
  await expect(gallery.getByRole('combobox', { name: 'Search prompts' })).toHaveValue(word);
  await expect(tiles).not.toHaveCount(0);
});
