import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectImageLoaded } from './task-helpers';

// product-notes §3 "Everywhere": keyboard-only use works. Connect, pick a model, fill the form,
// read the quote, generate and open the result with Tab, arrows, Enter, Escape and typing alone; the
// mouse is never used.

/** Presses Tab (Shift+Tab when `back`) until `target` has the focus; fails when it never gets it. */
async function tabTo(page: Page, target: Locator, { max = 60, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `reached with Tab within ${max} presses`).toBeFocused();
}

test('connect, pick a model, fill the form, generate and open the result with the keyboard only', async ({
  studio,
  page,
  history,
}) => {
  await studio.goto();

  // Connect: the API key field, then Enter submits the form.
  await tabTo(page, studio.apiKey);
  await page.keyboard.type(studio.keyOf('personal'));
  await page.keyboard.press('Enter');
  await expect(studio.accountButton).toContainText('5,000 credits');

  // Into the catalog: the Models tab, then its first model card, opened with Enter.
  await tabTo(page, studio.tab('Models'));
  await expect(studio.tab('Models')).toHaveAttribute('aria-selected', 'true');
  const card = studio.card('Lumen Canvas', studio.panel('Models'));
  await tabTo(page, card);
  await page.keyboard.press('Enter');
  await expect(studio.form('Lumen Canvas')).toBeVisible();
  await expect(card).toHaveAttribute('aria-current', 'true');

  // The prompt, typed.
  await tabTo(page, studio.prompt);
  await page.keyboard.type('A paper boat on a puddle');
  await expect(studio.prompt).toHaveValue('A paper boat on a puddle');

  // A radio group moves with the arrow keys: Resolution from 1K to 2K.
  const resolution = studio.form('Lumen Canvas').getByRole('group', { name: 'Resolution', exact: true });
  await tabTo(page, resolution.getByRole('radio', { checked: true }));
  // Held until the focus has moved, as a finger does: Radix moves the focus on the next tick and checks
  // the radio it lands on while an arrow key is down.
  await page.keyboard.down('ArrowRight');
  await expect(resolution.getByRole('radio', { name: '2K' })).toBeFocused();
  await page.keyboard.up('ArrowRight');
  await expect(resolution.getByRole('radio', { name: '2K' })).toBeChecked();

  // The quote: its price, and its breakdown opened from the keyboard.
  await expect(studio.quote.getByTestId('quote-credits')).toHaveText(/\d+ credits?/);
  const breakdown = studio.quote.getByText('Price breakdown');
  await tabTo(page, breakdown);
  await page.keyboard.press('Enter');
  await expect(studio.quote.getByTestId('breakdown-pricingKey')).toBeVisible();
  await expect(studio.quote.getByTestId('breakdown-pricingKey')).toHaveText('lumen-canvas/v2');

  // Copy request opens from the keyboard too, and Escape gives the focus back.
  await tabTo(page, studio.copyRequestButton, { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Copy request' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Copy request' })).toBeHidden();
  await expect(studio.copyRequestButton).toBeFocused();

  // The account dialog as well.
  await tabTo(page, studio.accountButton, { back: true });
  await page.keyboard.press('Enter');
  const account = page.getByRole('dialog', { name: 'Account' });
  await expect(account).toBeVisible();
  await expect(account.getByText('5,000 credits')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(account).toBeHidden();
  await expect(studio.accountButton).toBeFocused();

  // Generate: Tab to it and press Enter (Ctrl+Enter from a field is the shortcut; both submit).
  const generate = page.getByRole('button', { name: 'Generate', exact: true });
  await tabTo(page, generate);
  await page.keyboard.press('Enter');
  const result = history.card('A paper boat on a puddle');
  await history.expectStatus(result, 'succeeded');

  // The result: Tab to the card's title, Enter opens its detail, Escape closes it and gives the focus back.
  const opener = history.opener(result);
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const detail = page.getByRole('dialog', { name: 'Lumen Canvas', exact: true });
  await expect(detail).toBeVisible();
  await expect(detail.getByText(/^task_[\w-]+$/)).toBeVisible();
  await expectImageLoaded(detail.getByRole('img', { name: 'A paper boat on a puddle' }));
  // Its actions are reachable from the keyboard too.
  await tabTo(page, detail.getByRole('button', { name: 'Remix' }));
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(opener).toBeFocused();

  // Ctrl+Enter from the prompt submits a second one.
  await tabTo(page, studio.prompt, { back: true });
  await page.keyboard.press('End');
  await page.keyboard.type(', again');
  await page.keyboard.press('Control+Enter');
  await history.expectStatus(history.card('A paper boat on a puddle, again'), 'succeeded');
});
