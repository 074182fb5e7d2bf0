import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe-helpers';
import { expect, test } from './fixtures';
import { expectImageLoaded, generate, uniquePrompt } from './task-helpers';

// "Review" on an output (docs/using.md "Review"): Approve, Needs changes or Reject with a note, in the
// Viewer by keyboard alone; the Gallery tile then shows the review, and the Gallery's "Review" filter keeps
// or leaves it out.

/** Presses Tab until `target` has the focus; fails when it never gets it. */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached with Tab within ${max} presses`).toBeFocused();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('approve an output in the Viewer by keyboard with a note; the tile and the Review filter show it', async ({
  studio,
  page,
  history,
}) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  const prompt = uniquePrompt('a lighthouse to review');
  await generate(studio, prompt);
  await history.expectStatus(history.card(prompt), 'succeeded');

  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const gallery = page.getByRole('main', { name: 'Gallery' });
  // The task's first output (a model may make several: "<prompt> (output 1 of 2)").
  const name = new RegExp(`^${escapeRegExp(prompt)}`);
  const opener = gallery.getByRole('button', { name }).first();
  // (The inner locator is looked for inside each list item: it starts from the page, not the Gallery.)
  const tile = gallery
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name }) })
    .first();
  await expectImageLoaded(tile.locator('img').first());

  // Opened from its tile with Enter; the review given with Tab, Space and typing alone.
  await opener.focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: 'Viewer' });
  await expect(viewer).toBeVisible();
  const approve = viewer.getByRole('button', { name: 'Approve', exact: true });
  await expect(approve).toHaveAttribute('aria-pressed', 'false');
  await tabTo(page, approve);
  await page.keyboard.press('Space');
  await expect(approve).toHaveAttribute('aria-pressed', 'true');
  const note = viewer.getByRole('textbox', { name: 'Review note', exact: true });
  await tabTo(page, note);
  await page.keyboard.type('The one for the poster');
  // Leaving the field saves the note with the review.
  await page.keyboard.press('Tab');
  const reviews = viewer.getByRole('list', { name: 'Reviews', exact: true });
  await expect(reviews.getByRole('listitem')).toHaveCount(1);
  await expect(reviews).toContainText('Approved by You');
  await expect(reviews).toContainText('just now');
  await expect(reviews).toContainText('The one for the poster');
  await expectNoSeriousViolations(page, 'the Viewer with an approved output and its note');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // The tile says so.
  await expect(tile.getByTestId('tile-review')).toHaveText('Approved');

  // The "Review" filter: Approved keeps it, Rejected leaves it out.
  await gallery.getByRole('button', { name: /^Filters/ }).click();
  const filter = gallery.getByRole('combobox', { name: 'Review', exact: true });
  await filter.selectOption({ label: 'Approved' });
  await expect(opener).toBeVisible();
  await expect(gallery.getByTestId('tile-review')).toHaveText(['Approved']);
  expect(page.url()).toContain('review=approved');
  await expectNoSeriousViolations(page, 'the Gallery filtered to approved outputs');
  await filter.selectOption({ label: 'Rejected' });
  await expect(opener).toBeHidden();
  await expect(gallery.getByText('No outputs match these filters')).toBeVisible();
});
