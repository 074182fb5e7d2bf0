import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { expect, test, type Sandbox, type Studio } from './fixtures';
import { historyFile, importHistory, runCutout, seedImages, type Seeded } from './gallery-helpers';
import { storedRecords } from './stored';
import { readRecipe } from '../src/model/recipes/file-recipe';

/**
 * A downloaded file is the kept bytes with the task's recipe written in: one block inserted (PNG text
 * chunks before IEND, a JPEG's XMP segment after its header), every byte of the copy around it.
 */
function expectKeptWithRecipe(file: Uint8Array, kept: Uint8Array): void {
  let prefix = 0;
  while (prefix < kept.length && file[prefix] === kept[prefix]) prefix++;
  let suffix = 0;
  while (suffix < kept.length - prefix && file[file.length - 1 - suffix] === kept[kept.length - 1 - suffix])
    suffix++;
  expect(prefix + suffix, 'every byte of the kept copy, around one inserted block').toBe(kept.length);
  expect(file.length).toBeGreaterThan(kept.length);
  expect(readRecipe(file)).toMatchObject({ kind: 'recipe' });
}

// The gallery (product-notes §3 "Gallery and viewer"): tiles per output, the Viewer by keyboard,
// zoom, judging that survives a reload, before/after on an edit, multi-select, hide and undo, and a
// failed output URL shown as a placeholder with Retry.

const gallery = (page: Page) => page.getByRole('main', { name: 'Gallery' });
const tiles = (page: Page) => gallery(page).getByTestId('gallery-tile');
/** The tile whose open button is named by this prompt. */
const tile = (page: Page, name: string | RegExp) =>
  tiles(page).filter({ has: page.getByRole('button', { name, exact: typeof name === 'string' }) });
const opener = (page: Page, name: string | RegExp) =>
  gallery(page).getByRole('button', { name, exact: typeof name === 'string' });
const viewer = (page: Page) => page.getByRole('dialog', { name: 'Viewer' });

async function openGallery(studio: Studio) {
  const button = studio.page.getByRole('button', { name: 'Gallery', exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(gallery(studio.page)).toBeVisible();
}

async function seeded(studio: Studio, tasks: Seeded[], judgements: unknown[] = []) {
  await studio.start('personal');
  await importHistory(studio.page, historyFile(tasks, judgements));
  await openGallery(studio);
}

/** Tiles in view, by the name of their open button. */
/** One seeded image task with a single output, and that output's URL. */
async function oneImage(sandbox: Sandbox) {
  const tasks = await seedImages(sandbox, 1);
  tasks[0]!.outputs = tasks[0]!.outputs.slice(0, 1);
  return { tasks, url: tasks[0]!.outputs[0]!.url };
}

async function tileNames(page: Page): Promise<string[]> {
  return gallery(page)
    .locator('[data-role="open"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

test('one tile per output, newest first, grouped by day; the URL keeps the view and its filters', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox);
  await seeded(studio, tasks);
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('5 outputs');
  expect(await tileNames(page)).toEqual([
    'gallery tile 4',
    'gallery tile 3',
    'gallery tile 2',
    'gallery tile 1 (output 1 of 2)',
    'gallery tile 1 (output 2 of 2)',
  ]);
  await expect(gallery(page).getByRole('heading', { name: /^Today/ })).toBeVisible();
  // Every tile's image loaded (no placeholder).
  await expect(gallery(page).getByTestId('media-failed')).toHaveCount(0);

  // Filters go to the URL and come back after a reload; the key never does.
  await gallery(page).getByRole('combobox', { name: 'Search prompts' }).fill('tile 3');
  await gallery(page).getByRole('combobox', { name: 'Sort' }).selectOption('oldest');
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('1 of 5 outputs');
  expect(page.url()).toContain('view=gallery');
  expect(page.url()).toContain('q=tile+3');
  expect(page.url()).toContain('sort=oldest');
  expect(page.url()).not.toContain(studio.keyOf('personal'));
  await page.reload();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('1 of 5 outputs');
  await expect(gallery(page).getByRole('combobox', { name: 'Search prompts' })).toHaveValue('tile 3');

  // The tile size control changes the tiles' width.
  await gallery(page).getByRole('combobox', { name: 'Search prompts' }).fill('');
  // 0 while the virtual rows re-render after a size change (the first tile is swapped for a new one).
  const width = async () => (await tiles(page).first().boundingBox())?.width ?? 0;
  const medium = await width();
  await gallery(page).getByRole('radio', { name: 'L' }).click();
  await expect.poll(width).toBeGreaterThan(medium);

  // The date range: each end bounds the other; a range after today holds no output.
  await gallery(page)
    .getByRole('button', { name: /^Filters/ })
    .click();
  const tomorrow = await page.evaluate(() => {
    const d = new Date(Date.now() + 86_400_000);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  await gallery(page).getByLabel('From', { exact: true }).fill(tomorrow);
  await expect(gallery(page).getByLabel('To', { exact: true })).toHaveAttribute('min', tomorrow);
  await expect(gallery(page).getByText('No outputs match these filters')).toBeVisible();
  await gallery(page).getByLabel('From', { exact: true }).fill('');
  await expect(gallery(page).getByLabel('To', { exact: true })).not.toHaveAttribute('min');
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('5 outputs');

  await page.screenshot({ path: '/tmp/gallery-desktop.png' });
  // Closing the gallery drops its filters from the URL.
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await expect(page.getByRole('region', { name: 'History', exact: true })).toBeVisible();
  expect(page.url()).not.toContain('sort=');
});

test('the viewer: arrows through the filtered set, zoom Fit and 100%, shortcuts, Escape back to the tile', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox);
  await seeded(studio, tasks);
  await opener(page, 'gallery tile 3').focus();
  await page.keyboard.press('Enter');
  const dialog = viewer(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('viewer-position')).toHaveText('2 of 5');
  await expect(dialog.getByRole('img', { name: 'gallery tile 3' })).toBeVisible();

  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByTestId('viewer-position')).toHaveText('3 of 5');
  await expect(dialog.getByRole('img', { name: 'gallery tile 2' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('img', { name: 'gallery tile 1 (output 1 of 2)' })).toBeVisible();
  // The task's other outputs are listed and open.
  await dialog.getByRole('button', { name: 'Output 2 of 2' }).click();
  await expect(dialog.getByTestId('viewer-position')).toHaveText('5 of 5');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('img', { name: 'gallery tile 2' })).toBeVisible();

  // Every param and the timing, and the detail view's actions.
  await expect(dialog.getByTestId('param-list')).toContainText('gallery tile 2');
  for (const name of ['Download', 'Copy URL', 'Use as input', 'Remix'])
    await expect(dialog.getByRole('button', { name, exact: true })).toBeVisible();

  // Zoom: "100%" shows the image at its natural size, "Fit" the whole of it in the stage.
  const img = dialog.getByRole('img', { name: 'gallery tile 2' });
  const natural = await img.evaluate((el: HTMLImageElement) => el.naturalWidth);
  await dialog.getByRole('button', { name: '100%' }).click();
  await expect(dialog.getByTestId('zoom-level')).toHaveText('100%');
  await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(natural);
  await dialog.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(async () => (await img.boundingBox())!.height).toBeLessThan(page.viewportSize()!.height);
  await expect(dialog.getByTestId('zoom-level')).not.toHaveText('100%');
  // Keys too: A is 100%, F fits.
  await page.keyboard.press('a');
  await expect(dialog.getByTestId('zoom-level')).toHaveText('100%');
  await page.keyboard.press('f');
  await expect(dialog.getByTestId('zoom-level')).not.toHaveText('100%');
  // The wheel zooms.
  const before = await dialog.getByTestId('zoom-level').textContent();
  const box = (await img.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect(dialog.getByTestId('zoom-level')).not.toHaveText(before ?? '');

  // "?" lists the shortcuts.
  await page.keyboard.press('?');
  const shortcuts = dialog.getByRole('region', { name: 'Keyboard shortcuts' });
  await expect(shortcuts).toContainText('Star or unstar');
  await expect(shortcuts).toContainText('Previous / next output');
  await page.screenshot({ path: '/tmp/gallery-viewer.png' });
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
  await expect(dialog).toBeVisible();

  // Escape closes and gives the focus back to the tile of the output shown last.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener(page, 'gallery tile 2')).toBeFocused();
});

test('after a reload (a returning visit: the stylesheet is added while the page is parsed) the Viewer at desktop width still has its details beside the image', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox, 1);
  await seeded(studio, tasks);
  await page.reload();
  await expect(gallery(page)).toBeVisible();
  await opener(page, 'gallery tile 1').click();
  const stage = viewer(page).getByTestId('viewer-stage');
  const details = viewer(page).getByRole('complementary', { name: 'Details' });
  await expect(details).toBeVisible();
  const [a, b] = [(await stage.boundingBox())!, (await details.boundingBox())!];
  // Side by side (lg:flex-row, lg:w-96), the stage as tall as the window's rest: not the phone's stack.
  expect(b.x).toBeGreaterThanOrEqual(a.x + a.width - 1);
  expect(b.width).toBeLessThan(400);
  expect(a.height).toBeGreaterThan(400);
});

test('star and rating, by button and by key, survive a reload, drive the starred and minimum-rating filters, and travel in the export', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox, 2);
  await seeded(studio, tasks);
  await opener(page, 'gallery tile 2').click();
  const dialog = viewer(page);
  await dialog.getByRole('button', { name: 'Star', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Star', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await dialog.getByRole('group', { name: 'Rating' }).getByRole('button', { name: '4' }).click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('s');
  await page.keyboard.press('2');
  await expect(dialog.getByRole('button', { name: 'Star', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(
    dialog.getByRole('group', { name: 'Rating' }).getByRole('button', { name: '2' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(gallery(page)).toBeVisible();
  await expect(tile(page, 'gallery tile 2').getByRole('button', { name: 'Star' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await opener(page, 'gallery tile 2').click();
  await expect(
    viewer(page).getByRole('group', { name: 'Rating' }).getByRole('button', { name: '4' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');

  // The starred filter: the two starred of the three, in the URL and from it after a reload.
  const count = gallery(page).getByTestId('gallery-count');
  await expect(count).toHaveText('3 outputs');
  await gallery(page)
    .getByRole('button', { name: /^Filters/ })
    .click();
  await gallery(page).getByRole('checkbox', { name: 'Starred only' }).check();
  await expect(count).toHaveText('2 of 3 outputs');
  expect(page.url()).toContain('starred=1');
  await page.reload();
  await expect(count).toHaveText('2 of 3 outputs');
  // The panel opens by itself with a filter active; its button says how many.
  await expect(gallery(page).getByRole('button', { name: /^Filters\s*\(\s*1 active\)$/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(gallery(page).getByRole('checkbox', { name: 'Starred only' })).toBeChecked();
  await gallery(page).getByRole('checkbox', { name: 'Starred only' }).uncheck();
  await expect(count).toHaveText('3 outputs');

  // The minimum rating: of the ratings 4 and 2, only the 4 is at least 3.
  await gallery(page).getByRole('combobox', { name: 'Minimum rating' }).selectOption('3');
  await expect(count).toHaveText('1 of 3 outputs');
  expect(page.url()).toContain('rating=3');

  // The export carries them.
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Export/ }).click();
  const file = JSON.parse(
    await (await (await download).createReadStream()).toArray().then((b) => Buffer.concat(b).toString()),
  ) as {
    judgements: Array<{ outputKey: string; starred: boolean; rating: number | null }>;
  };
  expect(file.judgements).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ outputKey: `${tasks[1]!.taskId}#0`, starred: true, rating: 4 }),
      expect.objectContaining({ starred: true, rating: 2 }),
    ]),
  );
});

test('an edit compares with its source on the Before and after slider', async ({ studio, sandbox, page }) => {
  const tasks = await seedImages(sandbox, 1);
  const source = tasks[0]!.outputs[0]!.url;
  const cutout = await runCutout(sandbox, source, Date.now());
  tasks[0]!.outputs = tasks[0]!.outputs.slice(0, 1);
  await seeded(studio, [...tasks, cutout]);
  await opener(page, /^Remove background/).click();
  await viewer(page).getByRole('button', { name: 'Compare with source' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare two' });
  await expect(compare).toBeVisible();
  const slider = compare.getByRole('slider', { name: 'Before and after' });
  await expect(slider).toHaveValue('50');
  await expect(compare.getByRole('img', { name: 'Source' })).toHaveAttribute('src', source);
  await slider.focus();
  await page.keyboard.press('End');
  await expect(slider).toHaveValue('100');
  // Side by side keeps zoom and pan in sync.
  await compare.getByRole('radio', { name: 'Side by side' }).click();
  await compare.getByRole('group', { name: 'Zoom before' }).getByRole('button', { name: '100%' }).click();
  await expect(compare.getByRole('group', { name: 'Zoom after' }).getByTestId('zoom-level')).toHaveText(
    '100%',
  );
  // Both panes show the same spot: the same box for each image, relative to its pane.
  const placed = async (name: string) => {
    const img = (await compare.getByRole('img', { name, exact: true }).boundingBox())!;
    const pane = (await compare
      .getByRole('figure')
      .filter({ has: page.getByRole('img', { name, exact: true }) })
      .boundingBox())!;
    return [Math.round(img.x - pane.x), Math.round(img.y - pane.y), Math.round(img.width)];
  };
  await expect.poll(async () => await placed('Remove background')).toEqual(await placed('Source'));
  await compare.getByRole('group', { name: 'Zoom after' }).getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(async () => await placed('Source')).toEqual(await placed('Remove background'));
  await page.screenshot({ path: '/tmp/gallery-compare.png' });
  // Closing it returns to the viewer it was opened from.
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
  await expect(viewer(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();

  // Selecting only the edit, "Compare two" opens it on its source too.
  await tile(page, /^Remove background/)
    .getByRole('checkbox', { name: 'Select' })
    .check();
  await gallery(page)
    .getByRole('toolbar', { name: 'Selection' })
    .getByRole('button', { name: 'Compare two' })
    .click();
  await expect(
    page.getByRole('dialog', { name: 'Compare two' }).getByRole('slider', { name: 'Before and after' }),
  ).toBeVisible();
});

test('multi-select: click, shift-click range, Ctrl+A; bulk Star; Hide with undo and show again', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox);
  await seeded(studio, tasks);
  const select = (name: string) => tile(page, name).getByRole('checkbox', { name: 'Select' });
  const toolbar = gallery(page).getByRole('toolbar', { name: 'Selection' });
  await select('gallery tile 4').click();
  await select('gallery tile 2').click({ modifiers: ['Shift'] });
  await expect(toolbar.getByTestId('selection-count')).toHaveText('3 selected');
  await expect(select('gallery tile 3')).toBeChecked();
  await expect(select('gallery tile 1 (output 1 of 2)')).not.toBeChecked();

  await toolbar.getByRole('button', { name: 'Star selected' }).click();
  for (const name of ['gallery tile 4', 'gallery tile 3', 'gallery tile 2'])
    await expect(tile(page, name).getByRole('button', { name: 'Star' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

  await select('gallery tile 4').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await expect(toolbar.getByTestId('selection-count')).toHaveText('5 selected');
  await page.keyboard.press('Escape');
  await expect(toolbar).toBeHidden();

  // Hide two tasks: gone from the gallery and the History column, nothing sent to the service.
  const before = (await sandbox.requests()).length;
  await select('gallery tile 4').click();
  await select('gallery tile 3').click();
  await toolbar.getByRole('button', { name: 'Hide' }).click();
  // The notice (with its Undo) is the studio's one notice area, outside the Gallery region.
  const notices = page.getByRole('region', { name: /^Notices/ });
  await expect(notices.getByText('2 tasks hidden on this device.')).toBeVisible();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('3 outputs');
  await notices.getByRole('button', { name: 'Undo' }).click();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('5 outputs');

  await select('gallery tile 4').click();
  await toolbar.getByRole('button', { name: 'Hide' }).click();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('4 outputs');
  // On disk before the reload (the view changes first; a reload aborts a write still in flight).
  await expect.poll(async () => (await storedRecords(page, 'hidden')).length).toBe(1);
  await page.reload();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('4 outputs');
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await expect(page.getByTestId('history-count')).toHaveText('3 tasks · 1 hidden');
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  expect((await sandbox.requests()).slice(before).filter((r) => r.method !== 'GET')).toEqual([]);

  // Shown again from "Show hidden tasks".
  await gallery(page)
    .getByRole('button', { name: /^Filters/ })
    .click();
  await gallery(page)
    .getByRole('checkbox', { name: /Show hidden tasks/ })
    .check();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('5 of 5 outputs');
  await select('gallery tile 4').click();
  await toolbar.getByRole('button', { name: 'Show again' }).click();
  await gallery(page)
    .getByRole('checkbox', { name: /Show hidden tasks/ })
    .uncheck();
  await expect(gallery(page).getByTestId('gallery-count')).toHaveText('5 outputs');

  // Add to comparison sends the selection's models to Compare.
  await expect(select('gallery tile 4')).toBeChecked();
  await toolbar.getByRole('button', { name: 'Add to comparison' }).click();
  await expect(
    page.getByRole('region', { name: /^Notices/ }).getByText(/Added 1 model of .* to the comparison/),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Compare/ }).first()).toContainText('1');
});

test('keys inside the Viewer, Compare two and the download dialog stay there: Ctrl+A selects nothing behind, Escape cancels only the download', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox);
  // Two outputs that never answer: their ZIP keeps running until it is cancelled.
  const held = new Set([tasks[3]!.outputs[0]!.url, tasks[2]!.outputs[0]!.url]);
  await page.route(
    (u) => held.has(u.href),
    () => undefined,
  );
  await seeded(studio, tasks);
  const select = (name: string) => tile(page, name).getByRole('checkbox', { name: 'Select' });
  const toolbar = gallery(page).getByRole('toolbar', { name: 'Selection' });
  const count = toolbar.getByTestId('selection-count');
  await select('gallery tile 4').click();
  await select('gallery tile 3').click();
  await expect(count).toHaveText('2 selected');

  await opener(page, 'gallery tile 2').click();
  await expect(viewer(page)).toBeVisible();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  await expect(count).toHaveText('2 selected');

  await toolbar.getByRole('button', { name: 'Compare two' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare two' });
  await expect(compare).toBeVisible();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();
  await expect(count).toHaveText('2 selected');

  await toolbar.getByRole('button', { name: 'Download selected' }).click();
  const running = page.getByRole('dialog', { name: 'Downloading 2 outputs as a ZIP' });
  await expect(running.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.keyboard.press('ControlOrMeta+a');
  await expect(count).toHaveText('2 selected');
  await page.keyboard.press('Escape');
  const ended = page.getByRole('dialog', { name: 'Download selected' });
  await expect(ended).toContainText('Download cancelled. Nothing was saved.');
  await expect(count).toHaveText('2 selected');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('an output URL that fails shows the reason and a Retry, in the tile and the viewer', async ({
  studio,
  sandbox,
  page,
}) => {
  const { tasks, url } = await oneImage(sandbox);
  let failing = true;
  await page.route(
    (u) => u.href === url,
    (route) => (failing ? route.fulfill({ status: 404, body: 'gone' }) : route.fallback()),
  );
  await seeded(studio, tasks);
  const placeholder = tile(page, 'gallery tile 1').getByTestId('media-failed');
  await expect(placeholder).toContainText('The file server answered 404');
  await expect(tile(page, 'gallery tile 1').getByRole('img')).toHaveCount(0);

  await opener(page, 'gallery tile 1').click();
  await expect(viewer(page).getByTestId('media-failed')).toContainText('404');
  await page.keyboard.press('Escape');

  failing = false;
  const retry = placeholder.getByRole('button', { name: 'Retry' });
  await retry.click();
  await expect(placeholder).toBeHidden();
  await expect
    .poll(() =>
      tile(page, 'gallery tile 1')
        .locator('img')
        .evaluate((el: HTMLImageElement) => el.naturalWidth),
    )
    .toBeGreaterThan(0);
});

test('Download selected: one ZIP of the selection, with real extensions, a manifest.json and a CSV', async ({
  studio,
  sandbox,
  page,
  demoKeys,
}) => {
  const tasks = await seedImages(sandbox, 4);
  // One output that no longer answers: listed in the manifest as failed, the rest still in the ZIP.
  const gone = tasks[2]!.outputs[0]!.url;
  await page.route(
    (u) => u.href === gone,
    (route) => route.fulfill({ status: 404, body: 'gone' }),
  );
  await seeded(studio, tasks);
  const select = (name: string) => tile(page, name).getByRole('checkbox', { name: 'Select' });
  await select('gallery tile 3').click();
  await select('gallery tile 2').click();
  await select('gallery tile 4').click();
  const toolbar = gallery(page).getByRole('toolbar', { name: 'Selection' });
  const download = page.waitForEvent('download');
  await toolbar.getByRole('button', { name: 'Download selected' }).click();
  const file = await (await download).path();
  const zip = unzipSync(new Uint8Array(await readFile(file)));
  const names = Object.keys(zip).sort();
  expect(names).toContain('manifest.json');
  expect(names).toContain('selection.csv');
  const media = names.filter((n) => n !== 'manifest.json' && n !== 'selection.csv');
  expect(media).toHaveLength(2);
  for (const name of media) expect(name).toMatch(/gallery-tile-[24].*\.(png|jpg)$/);
  // Each file's bytes are what its name says (the sandbox's images are PNG or JPEG whatever the URL).
  for (const name of media) {
    const bytes = zip[name]!;
    const png = bytes[0] === 0x89 && bytes[1] === 0x50;
    expect(name.endsWith(png ? '.png' : '.jpg')).toBe(true);
  }
  const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as {
    files: Array<{ taskId: string; status: string; file: string | null; error: string | null }>;
  };
  expect(manifest.files).toHaveLength(3);
  expect(
    manifest.files
      .filter((f) => f.status === 'saved')
      .map((f) => f.file)
      .sort(),
  ).toEqual(media);
  const failed = manifest.files.filter((f) => f.status !== 'saved');
  expect(failed.map((f) => [f.taskId, f.status])).toEqual([[tasks[2]!.taskId, 'failed']]);
  expect(failed[0]!.error).toMatch(/404/);
  const csv = strFromU8(zip['selection.csv']!);
  for (const t of tasks.slice(1)) expect(csv).toContain(t.taskId);
  expect(csv).not.toContain(demoKeys.personal);
});

test('a starred output is kept on this device: shown, downloaded and zipped from that copy when its URL no longer answers', async ({
  studio,
  sandbox,
  page,
}) => {
  const { tasks, url } = await oneImage(sandbox);
  // The tile loads a thumbnail, which is never kept: the copy is found by the output, not by a URL.
  const thumbnail = `${url}${url.includes('?') ? '&' : '?'}thumbnail=1`;
  tasks[0]!.outputs[0]!.thumbnailUrl = thumbnail;
  await page.route(
    (u) => u.href === thumbnail,
    (route) => route.fulfill({ status: 404, body: 'gone' }),
  );
  const original = await (await page.request.get(url)).body();
  await seeded(studio, tasks);
  await tile(page, 'gallery tile 1').getByRole('button', { name: 'Star' }).click();
  const meter = gallery(page).getByRole('region', { name: 'Storage on this device' });
  await expect(meter).toContainText('Kept on this device: 1 starred output');

  await page.route(
    (u) => u.href === url,
    (route) => route.fulfill({ status: 404, body: 'gone' }),
  );
  await page.reload();
  await expect(gallery(page)).toBeVisible();
  const image = tile(page, 'gallery tile 1').locator('img');
  await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
  await expect(tile(page, 'gallery tile 1').getByTestId('media-failed')).toHaveCount(0);

  // The Viewer's Download saves the kept bytes, with the recipe written in.
  await opener(page, 'gallery tile 1').click();
  const saving = page.waitForEvent('download');
  await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
  const saved = await saving;
  expect(saved.suggestedFilename()).toMatch(/\.(png|jpg)$/);
  expectKeptWithRecipe(new Uint8Array(await readFile((await saved.path())!)), new Uint8Array(original));
  await expect(viewer(page)).toContainText('from the copy kept on this device');
  await page.keyboard.press('Escape');

  // Download selected puts them in the ZIP.
  await tile(page, 'gallery tile 1').getByRole('checkbox', { name: 'Select' }).click();
  const zipping = page.waitForEvent('download');
  await gallery(page)
    .getByRole('toolbar', { name: 'Selection' })
    .getByRole('button', { name: 'Download selected' })
    .click();
  const zip = unzipSync(new Uint8Array(await readFile((await (await zipping).path())!)));
  const media = Object.keys(zip).filter((n) => n !== 'manifest.json' && n !== 'selection.csv');
  expect(media).toHaveLength(1);
  expectKeptWithRecipe(zip[media[0]!]!, new Uint8Array(original));
  const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as {
    files: Array<{ status: string; from: string | null }>;
  };
  expect(manifest.files).toEqual([expect.objectContaining({ status: 'saved', from: 'kept-copy' })]);
});

export type { Locator };
