import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { generate, uniquePrompt } from './task-helpers';

// "Group batches" (product-notes §3 "History and gallery"): a batch of Variations, made through the form
// against the real sandbox, is one stack in the gallery sorted by credits, with its count; it opens in
// place (its tiles follow it) and Escape on one of them closes it with the focus back on the stack.

const gallery = (page: Page) => page.getByRole('main', { name: 'Gallery' });
/** The grid's cells in order: "stack", or the prompt a tile is named by. */
const cells = (page: Page) =>
  gallery(page)
    .getByTestId('gallery-scroll')
    .locator('[data-key]')
    .evaluateAll((els) =>
      els.map((el) =>
        (el as HTMLElement).dataset.testid === 'batch-stack'
          ? 'stack'
          : (el.querySelector('[data-role="open"]')?.getAttribute('aria-label') ?? ''),
      ),
    );

test('a batch of Variations is one stack under "Most credits", opened in place and closed with Escape', async ({
  studio,
  page,
  history,
}) => {
  // Five real tasks, run one after another through the form.
  test.setTimeout(120_000);
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  const tag = uniquePrompt('g');
  const cheap = `a lone cheap boat ${tag}`;
  await generate(studio, cheap);

  await studio.prompt.fill(`a {red|blue|green} fox ${tag}`);
  await page.getByRole('checkbox', { name: 'Variations' }).check();
  // A batch is sent only at a settled price (else "not known yet: wait for the quote"): the Quote's batch
  // line, settled for this prompt, comes first.
  await expect(page.getByText(/^Batch: 3 tasks/)).toBeVisible();
  await expect(page.getByTestId('quote-stale')).toBeHidden();
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  // Sent at once, or held by the queue until the key's pool has room and then sent: either way the
  // History has the three once they are created (held tasks are not in its count).
  await expect(page.getByTestId('history-count')).toHaveText('4 tasks', { timeout: 60_000 });
  await page.getByRole('checkbox', { name: 'Variations' }).uncheck();

  // The newest task costs more than the batch's (v3 with Enhance): it comes first by credits.
  const form = studio.form('Lumen Canvas');
  await form.getByRole('combobox', { name: 'Version', exact: true }).selectOption('lumen-canvas-v3');
  await form
    .getByRole('radiogroup', { name: 'Enhance', exact: true })
    .getByRole('radio', { name: 'on', exact: true })
    .click();
  const dear = `a lone dear castle ${tag}`;
  await generate(studio, dear);
  for (const card of await history.cards.all()) await history.expectStatus(card, 'succeeded');

  // The batch's three tasks cost the same, so among themselves they keep the gallery's newest-first
  // order, which is the order the service created them in: its three sends may arrive in any order.
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await expect.poll(async () => (await cells(page)).length).toBe(5);
  const newest = await cells(page);
  const foxes = newest.slice(1, 4);
  expect(foxes.toSorted()).toEqual(['blue', 'green', 'red'].map((c) => `a ${c} fox ${tag}`));
  expect(newest).toEqual([dear, ...foxes, cheap]);
  // Oldest first turns the whole list round, so the credits order below is not the default one by chance.
  await gallery(page).getByRole('combobox', { name: 'Sort' }).selectOption('oldest');
  await expect.poll(() => cells(page)).toEqual([cheap, ...foxes.toReversed(), dear]);
  await gallery(page).getByRole('combobox', { name: 'Sort' }).selectOption('credits');
  await expect.poll(() => cells(page)).toEqual([dear, ...foxes, cheap]);

  await gallery(page).getByRole('checkbox', { name: 'Group batches' }).check();
  await expect(gallery(page).getByTestId('batch-stack')).toHaveCount(1);
  await expect.poll(() => cells(page)).toEqual([dear, 'stack', cheap]);
  const stack = gallery(page).getByRole('button', { name: `Batch of 3: ${foxes[0]}`, exact: false });
  await expect(stack).toHaveAttribute('aria-expanded', 'false');
  await expect(gallery(page).getByTestId('batch-count')).toHaveText('3');

  // Opened in place with the keyboard: its tiles follow the stack, the others keep their places.
  await stack.focus();
  await page.keyboard.press('Enter');
  await expect(stack).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => cells(page)).toEqual([dear, 'stack', ...foxes, cheap]);

  // Tab into its first tile, Escape: closed, and the focus is back on the stack.
  await page.keyboard.press('Tab');
  await expect(gallery(page).locator('[data-in-stack] [data-role="open"]').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect.poll(() => cells(page)).toEqual([dear, 'stack', cheap]);
  await expect(stack).toBeFocused();
  await expect(stack).toHaveAttribute('aria-expanded', 'false');

  // Remembered: after a reload (the URL keeps the view and the sort, the tab its connection) the
  // gallery still groups.
  await page.reload();
  await expect(gallery(page).getByRole('combobox', { name: 'Sort' })).toHaveValue('credits');
  await expect(gallery(page).getByRole('checkbox', { name: 'Group batches' })).toBeChecked();
  await expect.poll(() => cells(page)).toEqual([dear, 'stack', cheap]);
});
