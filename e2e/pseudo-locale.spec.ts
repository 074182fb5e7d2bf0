import type { Page } from '@playwright/test';
import { pseudoMessage } from '../scripts/i18n/pseudo';
import { historyFile, importHistory, seedImages } from './gallery-helpers';
import { expect, test } from './fixtures';
import { TASK_TIMEOUT, uniquePrompt } from './task-helpers';
import { cutOrOverflowing, untranslatedWords } from './untranslated';

// The pseudo-locale (docs/i18n.md): every message accented and 40 % longer. Each main screen checked here
// shows no English word that did not come from a catalog, and no text cut or overflowing, at the widths
// of the looks tests.

/** A message's text as the pseudo-locale shows it: an accessible name that is one whole message. */
const ps = (english: string) => pseudoMessage(english);

/** A message with placeholders as the pseudo-locale shows it, each placeholder any text. */
const psPattern = (english: string) =>
  new RegExp(
    `^${ps(english)
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+?')}$`,
  );

async function expectLocalised(page: Page, screen: string, width: number) {
  // The text is the catalogs' once the language has loaded; a screen that shows English has escaped them.
  expect(await untranslatedWords(page), `English left on ${screen} at ${width} px`).toEqual([]);
  expect(await cutOrOverflowing(page), `text cut or overflowing on ${screen} at ${width} px`).toEqual([]);
  // Longer words still fit: the page does not scroll sideways. Else the boxes whose content spills
  // out of them, innermost last, say where.
  const spills = await page.evaluate((edge) => {
    if (document.documentElement.scrollWidth <= edge) return [];
    return [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible')
      .map((el) => {
        const inner = [...el.children].map(
          (c) => `${c.tagName.toLowerCase()} ${Math.round(c.getBoundingClientRect().width)}px`,
        );
        return `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)} (${el.scrollWidth} > ${el.clientWidth}: ${inner.join(', ')})`;
      });
  }, width);
  expect(spills, `the page scrolls sideways on ${screen} at ${width} px`).toEqual([]);
}

for (const width of [360, 1600]) {
  test(`the connect screen at ${width} px comes from the catalogs, nothing cut or overflowing`, async ({
    page,
  }) => {
    await page.addInitScript(() => localStorage.setItem('media-studio:language', 'pseudo'));
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.locator('#connect-title')).toHaveText('~~~Ćōńńēćţ ţō ţĥē ÀƤĨ~~~');
    await expectLocalised(page, 'the connect screen', width);
  });

  test(`the studio, gallery, viewer, queue, presets, usage and compare at ${width} px come from the catalogs`, async ({
    studio,
    sandbox,
    page,
    history,
  }) => {
    test.slow();
    const phone = width < 640;
    await page.setViewportSize({ width, height: phone ? 800 : 1000 });
    // Set up in English, as the page objects speak it: a finished task, seeded outputs, a held task
    // (the queue paused) and a preset. Then the language changes and the page reloads: the key is kept
    // for the tab, and everything else is on the device.
    const seeded = await seedImages(sandbox, 2);
    await studio.start('personal');
    await importHistory(page, historyFile(seeded));
    await studio.openModel('Lumen Canvas', 'image/default');
    const done = uniquePrompt('a lighthouse in fog');
    await studio.prompt.fill(done);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await history.expectStatus(history.card(done), 'succeeded', TASK_TIMEOUT);
    const queue = page.getByRole('region', { name: 'Queue', exact: true });
    await queue.getByRole('button', { name: 'Pause queue' }).click();
    await studio.prompt.fill(uniquePrompt('held for later'));
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect(queue.getByRole('list', { name: 'Held tasks' }).getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Save preset', exact: true }).click();
    const save = page.getByRole('dialog', { name: 'Save preset' });
    await save.getByRole('textbox').first().fill('Foggy');
    await save.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(save).toBeHidden();

    await page.evaluate(() => localStorage.setItem('media-studio:language', 'pseudo'));
    await page.reload();
    await expect(page.locator('html')).not.toHaveAttribute('data-language-pending');
    const form = page.getByRole('region', { name: ps('Form') });
    await expect(form.getByRole('button', { name: ps('Generate'), exact: true })).toBeVisible();

    // The studio: the form with its quote, the queue paused with its held task.
    const quote = page.getByRole('region', { name: ps('Quote'), exact: true });
    await expect(quote.getByText(/\d/).first()).toBeVisible();
    const held = page.getByRole('region', { name: ps('Queue'), exact: true });
    await expect(held.getByRole('list', { name: ps('Held tasks') }).getByRole('listitem')).toHaveCount(1);
    await expect(held.getByRole('button', { name: ps('Resume queue') })).toBeVisible();
    await expectLocalised(page, 'the studio with its queue', width);

    // Presets.
    await page.getByRole('button', { name: ps('Presets'), exact: true }).click();
    const presets = page.getByRole('dialog', { name: ps('Presets') });
    await expect(presets.getByText('Foggy')).toBeVisible();
    await expectLocalised(page, 'the presets', width);
    await page.keyboard.press('Escape');
    await expect(presets).toBeHidden();

    // The gallery, then the Viewer on its first output.
    await page.getByRole('button', { name: ps(phone ? 'Results' : 'Gallery'), exact: true }).click();
    const gallery = page.getByRole('main', { name: ps('Gallery') });
    await expect(gallery.getByTestId('gallery-tile').first()).toBeVisible();
    await expectLocalised(page, 'the gallery', width);
    await gallery.getByTestId('gallery-tile').first().getByRole('button').first().click();
    const viewer = page.getByRole('dialog', { name: ps('Viewer') });
    await expect(viewer.getByRole('button', { name: ps('Star'), exact: true })).toBeVisible();
    await expectLocalised(page, 'the viewer', width);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    // Usage.
    await page.getByRole('button', { name: ps('Usage'), exact: true }).click();
    await expect(page.getByRole('heading', { name: ps('Usage'), exact: true })).toBeVisible();
    await expectLocalised(page, 'usage', width);

    // Compare, a board set up to run.
    await page
      .getByRole('button', { name: new RegExp(`^${ps('Compare').replace(/~+$/, '')}`) })
      .first()
      .click();
    const board = page.getByRole('region', { name: ps('Compare'), exact: true });
    await board.getByRole('combobox', { name: ps('Add model') }).selectOption({ index: 1 });
    await expectLocalised(page, 'compare', width);
  });
}

test('the team space (status line, members, its switch) and a Compare board with a result come from the catalogs', async ({
  studio,
  page,
}) => {
  test.slow();
  const width = 1600;
  await page.setViewportSize({ width, height: 1000 });
  // Set up in English, as the page objects speak it: the team space on with a display name (the team
  // key of the sandbox, as in team-space.spec.ts), and a Compare board run once. Then the language
  // changes and the page reloads on the board (the URL keeps it).
  await studio.start('team');
  const account = await studio.openAccount();
  const toggle = account.getByRole('switch', { name: 'Team space', exact: true });
  await toggle.click();
  await expect(toggle).toBeChecked();
  await account.getByLabel('Display name', { exact: true }).fill('Ana');
  await account.getByRole('button', { name: 'Save name', exact: true }).click();
  await expect(account.getByRole('button', { name: 'Saved', exact: true })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(account).toBeHidden();
  await page.getByRole('button', { name: /^Compare/ }).click();
  const compare = page.getByRole('region', { name: 'Compare', exact: true });
  // A board runs two models at least.
  for (const label of ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1'])
    await compare.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
  await compare.getByLabel('Prompt 1', { exact: true }).fill(uniquePrompt('a harbour at dawn'));
  await compare.getByRole('button', { name: /^Run all/ }).click();
  await expect(compare.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: TASK_TIMEOUT });

  await page.evaluate(() => localStorage.setItem('media-studio:language', 'pseudo'));
  await page.reload();
  await expect(page.locator('html')).not.toHaveAttribute('data-language-pending');

  // Compare: the board with its result, and the team space's status line above it.
  const board = page.getByRole('region', { name: ps('Compare'), exact: true });
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2);
  await expect(board.getByRole('img').first()).toBeVisible();
  const status = page.getByRole('status', { name: ps('Team space'), exact: true });
  await expect(status).toHaveAttribute('data-link', 'online', { timeout: 15_000 });
  await expectLocalised(page, 'compare with a result, in the team space', width);

  // Members.
  await page.getByRole('button', { name: psPattern('Members: {onlineCount} online') }).click();
  const members = page.getByRole('dialog', { name: ps('Members') });
  await expect(members.getByRole('listitem').first()).toBeVisible();
  await expectLocalised(page, 'the members', width);
  await page.keyboard.press('Escape');
  await expect(members).toBeHidden();

  // The Account dialog with the team space's switch and display name.
  await page
    .getByRole('button', { name: psPattern('Account: {keyName} {credits}') })
    .or(page.getByRole('button', { name: psPattern('Account: {keyName}') }))
    .click();
  const dialog = page.getByRole('dialog', { name: ps('Account') });
  await expect(dialog.getByRole('switch', { name: ps('Team space'), exact: true })).toBeChecked();
  await expectLocalised(page, 'the account with the team space on', width);
});
