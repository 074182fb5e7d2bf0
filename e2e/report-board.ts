import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

// The small board the Model report's tests share (model-report.spec.ts, report-export.spec.ts): two
// models, two prompts, run against the sandbox, then voted blind: prompt 1's best is Candidate A,
// prompt 2 a tie. The board stays blind; each test goes on from there.

export const REPORT_MODELS = ['Lumen Canvas · v2', 'Aurora XL · Aurora XL 1.0'];

export const compareRegion = (page: Page) => page.getByRole('region', { name: 'Compare', exact: true });

/** Opens Compare, names the board when asked, runs it and votes blind. Answers the board. */
export async function runVotedBoard(page: Page, { name }: { name?: string } = {}): Promise<Locator> {
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = compareRegion(page);
  if (name !== undefined) await board.getByLabel('Board name', { exact: true }).fill(name);
  for (const label of REPORT_MODELS)
    await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill('A lighthouse on a cliff at dusk');
  await board.getByRole('button', { name: 'Add prompt' }).click();
  await board.getByLabel('Prompt 2', { exact: true }).fill('A bowl of ramen, top view');
  await board.getByRole('button', { name: /^Run all/ }).click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(4, { timeout: 30_000 });

  await board.getByRole('button', { name: 'Blind', exact: true }).click();
  const best = board.getByRole('group', { name: 'Candidate A, prompt 1', exact: true });
  await best.getByRole('button', { name: 'Best', exact: true }).click();
  await board.getByRole('button', { name: 'Tie, prompt 2' }).click();
  await expect(board.getByTestId('row-vote')).toHaveText(['Your vote: Candidate A', 'Your vote: a tie']);
  return board;
}
