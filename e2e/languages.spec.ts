import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './axe-helpers';
import { historyFile, importHistory, runCutout, seedImages } from './gallery-helpers';

// The studio's language (docs/i18n.md): first from the browser's languages, chosen with "Language" on the
// connect screen or in the account dialog, remembered on this device; <html lang dir> follow it, and the
// prerendered (English) connect screen never shows before the chosen language.

test.describe('a browser in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('opens the connect screen in Japanese, with the English prerendered page never shown first', async ({
    page,
  }) => {
    // With the studio's script and stylesheet held back, the page as built (English) stays hidden: the
    // rule that hides it is in the page itself.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/index-*.{js,css}', async (route) => {
      await held;
      await route.continue();
    });
    // (A module script holds DOMContentLoaded back: the page is looked at as soon as it is parsed.)
    await page.goto('/', { waitUntil: 'commit' });
    await expect(page.locator('#connect-title')).toHaveText('Connect to the API'); // the prerendered page, there…
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('#connect-title')).toBeHidden(); // …but not shown
    release();
    await expect(page.getByRole('heading', { name: 'API に接続' })).toBeVisible();
    await expect(page.getByRole('button', { name: '接続', exact: true })).toBeVisible();
    await expect(page.getByLabel('言語')).toHaveValue('ja');
  });
});

// The build inlines it minified into index.html (scripts/first-paint.ts); the test above shows the page as
// served still draws the language before the studio's script runs.
test('before-paint.js is inlined in index.html, minified: no comments, under half its source', async ({
  request,
}) => {
  const answer = await request.get('/');
  expect(answer.ok()).toBe(true);
  const scripts = [...(await answer.text()).matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(scripts).toHaveLength(1);
  const source = readFileSync(new URL('../public/before-paint.js', import.meta.url), 'utf8');
  expect(scripts[0]).not.toMatch(/\/\/ |\/\*/);
  expect(scripts[0]!.length).toBeLessThan(source.length / 2);
  expect(scripts[0]).toContain('data-language-pending');
});

test('Language on the connect screen: Arabic right to left, remembered after a reload, English again', async ({
  studio,
  page,
}) => {
  await studio.goto();
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.getByRole('heading', { name: 'الاتصال بواجهة API' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expectNoSeriousViolations(page, 'connect screen in Arabic');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'الاتصال بواجهة API' })).toBeVisible();
  await page.getByLabel('اللغة').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Connect to the API' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});

test('Language in the account dialog changes the studio around it', async ({ studio, page }) => {
  await studio.start('personal');
  const account = await studio.openAccount();
  await account.getByLabel('Language').selectOption('ja');
  // The dialog's own name is Japanese now.
  await expect(page.getByRole('dialog').getByRole('button', { name: '接続を解除' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
});

test('in Arabic the Viewer turns the other way: ArrowLeft is the next output, ArrowRight the previous', async ({
  studio,
  sandbox,
  page,
}) => {
  await studio.start('personal');
  await importHistory(page, historyFile(await seedImages(sandbox)));
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const gallery = page.getByRole('main', { name: 'Gallery' });
  await expect(gallery.getByTestId('gallery-tile')).toHaveCount(5);
  const account = await studio.openAccount();
  await account.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Newest first: tile 4, tile 3, tile 2, … The prompts are the tiles' names in every language (the
  // Gallery's own name is Arabic now).
  await page.getByRole('main').getByRole('button', { name: 'gallery tile 3', exact: true }).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('img', { name: 'gallery tile 3' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(viewer.getByRole('img', { name: 'gallery tile 2' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByRole('img', { name: 'gallery tile 4' })).toBeVisible();
  // The next button (the second in the DOM) sits on the left, its chevron mirrored to point left.
  const [previous, next] = await viewer.locator('[data-testid="viewer-position"] + div button').all();
  expect((await next!.boundingBox())!.x).toBeLessThan((await previous!.boundingBox())!.x);
  await expect(next!.locator('svg')).toHaveCSS('scale', '-1 1');
});

test('in Arabic the Before and after slider starts from the right: before on the right, ArrowRight toward it', async ({
  studio,
  sandbox,
  page,
}) => {
  const tasks = await seedImages(sandbox, 1);
  tasks[0]!.outputs = tasks[0]!.outputs.slice(0, 1);
  const cutout = await runCutout(sandbox, tasks[0]!.outputs[0]!.url, Date.now());
  await studio.start('personal');
  await importHistory(page, historyFile([...tasks, cutout]));
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const gallery = page.getByRole('main', { name: 'Gallery' });
  await expect(gallery.getByTestId('gallery-tile')).toHaveCount(2);
  const account = await studio.openAccount();
  await account.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // The tool's name is the catalog's, in every language; the Gallery's own name is Arabic now.
  await page
    .getByRole('main')
    .getByRole('button', { name: /^Remove background/ })
    .click();
  await page.keyboard.press('c'); // Compare with source
  const slider = page.getByRole('slider');
  await expect(slider).toHaveValue('50');
  const line = page.getByTestId('split-line');
  const x = async () => (await line.boundingBox())!.x;
  const middle = await x();
  await slider.focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('40');
  await expect.poll(x).toBeGreaterThan(middle);
  // The cut is 40 % "before" measured from the image's right edge (the image itself is not mirrored).
  const image = (await page.getByTestId('before-after').boundingBox())!;
  const lineAt = ((await x()) - image.x) / image.width;
  expect(Math.abs(lineAt - 0.6)).toBeLessThan(0.02);
});

for (const language of ['ja', 'ar'] as const) {
  test(`the studio in ${language === 'ja' ? 'Japanese' : 'Arabic'}, a form open: no serious axe violation, light and dark`, async ({
    studio,
    page,
  }) => {
    test.slow();
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    const account = await studio.openAccount();
    await account.getByLabel('Language').selectOption(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    // The form stays open, now in the chosen language (its catalog text stays the service's).
    await expect(page.getByRole('form', { name: 'Lumen Canvas' })).toBeVisible();
    await expectNoSeriousViolations(page, `the studio in ${language}`);
  });
}
