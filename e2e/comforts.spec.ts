import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe-helpers';
import { expect, test } from './fixtures';

// Everyday comforts: Undo in place of a confirm box (one notice system), "?" listing the shortcuts of
// the screen in view (never while typing), and the Theme chosen in the Account dialog, remembered and
// drawn before the first paint (product-notes §5 for the names).

const shortcutsDialog = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });

/** Nothing focused: a key goes to the page, as after a click on an empty spot. */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

/** Whether the shell's background is dark, read as sRGB whatever colour space the CSS used. */
const shellIsDark = (page: Page) =>
  page.evaluate(() => {
    const shell = document.querySelector('#root > div')!;
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.fillStyle = getComputedStyle(shell).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r = 255, g = 255, b = 255] = ctx.getImageData(0, 0, 1, 1).data;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  });

test('Undo after deleting a preset puts it back, and it stays back after a reload', async ({
  studio,
  page,
}) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('a kept castle');
  await page.getByRole('button', { name: 'Save preset', exact: true }).click();
  const save = page.getByRole('dialog', { name: 'Save preset' });
  await save.getByRole('textbox', { name: 'Preset name' }).fill('Castle');
  await save.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(save).toBeHidden();

  await page.getByRole('button', { name: 'Presets', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Presets' });
  const saved = dialog.getByRole('list', { name: 'Saved presets' });
  await expect(saved.getByRole('heading', { name: 'Castle' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete Castle' }).click();
  await expect(saved).toBeHidden();
  // No confirm box: the notice, inside the dialog (where the focus is kept), offers Undo.
  const notice = dialog.getByRole('listitem').filter({ hasText: 'Deleted "Castle".' });
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(saved.getByRole('heading', { name: 'Castle' })).toBeVisible();
  await expect(dialog.getByText('Restored "Castle".')).toBeVisible();

  // The key is kept for the tab: the reload opens the studio again.
  await page.reload();
  await page.getByRole('button', { name: 'Presets', exact: true }).click();
  await expect(saved.getByRole('heading', { name: 'Castle' })).toBeVisible();
});

test('"?" lists the shortcuts of the gallery and of the studio, and not while typing in the prompt', async ({
  studio,
  page,
}) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');

  // Typing a question mark in the prompt is typing.
  await studio.prompt.click();
  await page.keyboard.type('why?');
  await expect(studio.prompt).toHaveValue('why?');
  await expect(shortcutsDialog(page)).toBeHidden();

  await blur(page);
  await page.keyboard.press('?');
  await expect(shortcutsDialog(page)).toBeVisible();
  await expect(shortcutsDialog(page)).toContainText('Generate, from any field of the form');
  await expect(shortcutsDialog(page)).not.toContainText('Select every output shown');
  await expectNoSeriousViolations(page, 'Keyboard shortcuts dialog');
  await page.keyboard.press('Escape');
  await expect(shortcutsDialog(page)).toBeHidden();

  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await expect(page.getByRole('main', { name: 'Gallery' })).toBeVisible();
  await page.keyboard.press('?');
  await expect(shortcutsDialog(page)).toContainText('Select every output shown');
  await expect(shortcutsDialog(page)).not.toContainText('Generate, from any field of the form');
  await page.keyboard.press('?');
  await expect(shortcutsDialog(page)).toBeHidden();
});

test('Theme Dark is remembered across a reload and drawn before the first paint, connect screen included', async ({
  studio,
  page,
  browser,
  baseURL,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await studio.start('personal');
  expect(await shellIsDark(page)).toBe(false);
  const account = await studio.openAccount();
  await account.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => shellIsDark(page)).toBe(true);
  await page.keyboard.press('Escape');

  // The reload: the connect screen as prerendered, with the app's own script held back, is dark already.
  const storage = await page.context().storageState();
  const context = await browser.newContext({ baseURL, colorScheme: 'light', storageState: storage });
  try {
    const fresh = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await fresh.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await fresh.goto('/', { waitUntil: 'commit' });
    await expect(fresh.getByRole('heading', { name: 'Connect to the API' })).toBeVisible();
    expect(await fresh.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await shellIsDark(fresh)).toBe(true);
    release();
  } finally {
    await context.close();
  }

  // The key is kept for the tab: the reload opens the studio again, dark.
  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  expect(await shellIsDark(page)).toBe(true);
  const again = await studio.openAccount();
  await expect(again.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await again.getByRole('radio', { name: 'System' }).check();
  await expect.poll(() => shellIsDark(page)).toBe(false);
});

for (const [platform, commandKey, other] of [
  ['Linux x86_64', 'Ctrl', '⌘'],
  ['MacIntel', '⌘', 'Ctrl'],
] as const)
  test(`the form and "?" name the device's own command key: ${commandKey} on ${platform}`, async ({
    studio,
    page,
  }) => {
    await page.addInitScript((p) => {
      Object.defineProperty(Navigator.prototype, 'platform', { get: () => p });
    }, platform);
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    const hint = page.locator('p', { hasText: 'to submit.' });
    await expect(hint).toContainText(`Press ${commandKey}+Enter to submit.`);
    await expect(hint).not.toContainText(other);

    await blur(page);
    await page.keyboard.press('?');
    await expect(shortcutsDialog(page)).toContainText(`${commandKey} + Enter`);
    await expect(shortcutsDialog(page)).not.toContainText(other);
  });
