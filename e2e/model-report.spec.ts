import { expectNoSeriousViolations } from './axe-helpers';
import { expect, test } from './fixtures';
import { compareRegion, runVotedBoard } from './report-board';

// The Model report of a board (product-notes "Deciding with evidence"): a small board run
// against the sandbox, voted blind; the report says nothing while the member is blind, then shows
// each model's figures from the tasks and the votes; opened and closed with the keyboard only; axe clean
// light and dark at 1280 and 390 px.

const SHOTS = process.env.MODEL_REPORT_SHOTS;

test('the Model report shows a voted board’s figures, hides them from a blind member, and works by keyboard', async ({
  studio,
  page,
}) => {
  // Two tasks per model, then four axe runs (two widths, two schemes).
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.start('personal');
  // Run and voted blind: prompt 1's best is Candidate A, prompt 2 a tie.
  const board = await runVotedBoard(page);

  // Still blind: the report opens on a note, no figure, no name.
  await board.getByRole('button', { name: 'Model report', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Model report' });
  await expect(dialog.getByText('You are still blind on this board.')).toBeVisible();
  await expect(dialog.getByRole('table')).toHaveCount(0);
  await expect(dialog).not.toContainText('Lumen');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await board.getByRole('button', { name: 'Reveal', exact: true }).click();
  await expect(board.getByRole('button', { name: 'Blind', exact: true })).toBeVisible();

  // Keyboard only: Tab to the toolbar's Model report button, Enter opens it, Escape closes it and gives
  // the focus back.
  const reportButton = board.getByRole('button', { name: 'Model report', exact: true });
  await board.getByRole('button', { name: 'Blind', exact: true }).focus();
  for (let i = 0; i < 10 && !(await reportButton.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(reportButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();

  // The figures: two models, each in both votes (1 win and 1 tie, or 1 loss and 1 tie), two outputs
  // each, Preliminary (2 votes, under 10); and the charts name the front.
  const table = dialog.getByRole('table');
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  const header = await table.getByRole('columnheader').allTextContents();
  const col = (name: string) => header.indexOf(name);
  const first = rows.nth(1);
  const firstCells = first.locator('th, td');
  await expect(firstCells.nth(col('Wins / losses / ties'))).toHaveText('1 / 0 / 1');
  await expect(rows.nth(2).locator('th, td').nth(col('Wins / losses / ties'))).toHaveText('0 / 1 / 1');
  for (const r of [1, 2]) {
    const cells = rows.nth(r).locator('th, td');
    await expect(cells.nth(col('Votes'))).toHaveText('2');
    await expect(cells.nth(col('Outputs'))).toHaveText('2');
    await expect(cells.nth(col('p95 run time'))).toContainText('p95 of 2 runs');
    await expect(cells.nth(col('Failure rate'))).toHaveText('0%');
    await expect(cells.nth(col('Credits per output'))).toHaveText(/^[\d.,]+ credits?$/);
    await expect(rows.nth(r).getByRole('rowheader')).toContainText('Preliminary');
  }
  await expect(
    dialog.getByRole('img', { name: /^Quality against credits per output\. On the front/ }),
  ).toBeVisible();
  await expect(
    dialog.getByRole('img', { name: /^Quality against median run time\. On the front/ }),
  ).toBeVisible();

  await expectNoSeriousViolations(page, 'model report', { shotsDir: SHOTS });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(reportButton).toBeFocused();

  // At phone width, Compare is a destination of its own (docs/phone.md).
  await page.setViewportSize({ width: 390, height: 844 });
  if (!(await compareRegion(page).isVisible()))
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await compareRegion(page).getByRole('button', { name: 'Model report', exact: true }).click();
  await expect(dialog.getByRole('table')).toBeVisible();
  await expect(dialog.getByRole('img', { name: /^Quality against median run time/ })).toBeVisible();
  await expectNoSeriousViolations(page, 'model report', { shotsDir: SHOTS });
});
