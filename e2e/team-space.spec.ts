import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import {
  SANDBOX_ORIGIN,
  Studio,
  expect,
  test as base,
  type DemoKeyName,
  type LoggedRequest,
} from './fixtures';
import { History, TASK_TIMEOUT, generate, uniquePrompt } from './task-helpers';
import { expectNoSeriousViolations } from './axe-helpers';

// The team space (docs/team-space.md): members of one
// team, each in a browser of their own, share tasks, boards, blind votes and comments live, through the
// team-space server on the studio's /sync. The team's documents outlive a test (the server keeps them
// for the whole run, in a fresh folder per run: playwright.config.ts), so each test finds its own things
// by prompts and board names no other test uses, and never counts what earlier tests left.

/** The team's demo keys with the names their members go by in these tests. */
const ANA = { key: 'team', name: 'Ana' } as const;
const BEN = { key: 'team2', name: 'Ben' } as const;

/** One member: a browser context of their own, connected with a demo key, the team space on. */
class Member {
  readonly studio: Studio;
  readonly history: History;

  constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    keys: Record<string, string>,
    readonly key: DemoKeyName,
    readonly name: string,
  ) {
    this.studio = new Studio(page, keys);
    this.history = new History(page);
  }

  /** The line under the header: online and how many members, offline since when, or refused. */
  get status(): Locator {
    return this.page.getByRole('status', { name: 'Team space', exact: true });
  }

  get membersButton(): Locator {
    return this.page.getByRole('button', { name: /^Members: \d+ online$/ });
  }

  /**
   * Connects, turns the team space on in the Account dialog and saves the display name; then waits
   * until the team space is online (unless the server is expected to refuse the key).
   */
  async join({ online = true }: { online?: boolean } = {}): Promise<void> {
    await this.studio.start(this.key);
    const dialog = await this.studio.openAccount();
    const toggle = dialog.getByRole('switch', { name: 'Team space', exact: true });
    await toggle.click();
    await expect(toggle).toBeChecked();
    await dialog.getByLabel('Display name', { exact: true }).fill(this.name);
    await dialog.getByRole('button', { name: 'Save name', exact: true }).click();
    await expect(dialog.getByRole('button', { name: 'Saved', exact: true })).toBeDisabled();
    await this.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    if (online) await expect(this.status).toHaveText(/^Team space online/, { timeout: 15_000 });
  }

  /** Makes an image task with this prompt and waits until it has succeeded. */
  async makeTask(prompt: string): Promise<void> {
    if (!(await this.studio.form('Lumen Canvas').isVisible())) await this.studio.openModel('Lumen Canvas');
    await generate(this.studio, prompt);
    await this.history.expectStatus(this.history.card(prompt), 'succeeded', TASK_TIMEOUT);
  }

  /** The History's "By" select. */
  get by(): Locator {
    return this.history.region.getByRole('combobox', { name: 'By', exact: true });
  }

  /** Chooses a "By" option by the start of its label ("Ana" matches "Ana (3)"). */
  async chooseBy(select: Locator, label: 'Everyone' | 'Me' | string): Promise<void> {
    const options = await select.getByRole('option').allTextContents();
    const option = options.find((o) => o === label || o.startsWith(`${label} (`));
    expect(option, `"By" offers ${label} (it offers ${options.join(', ')})`).toBeDefined();
    await select.selectOption({ label: option! });
  }

  get compare(): Locator {
    return this.page.getByRole('region', { name: 'Compare', exact: true });
  }

  async openCompare(): Promise<void> {
    await this.page.getByRole('button', { name: /^Compare/ }).click();
    await expect(this.compare).toBeVisible();
  }

  get teamBoards(): Locator {
    return this.page.getByRole('list', { name: 'Team boards', exact: true });
  }

  get gallery(): Locator {
    return this.page.getByRole('main', { name: 'Gallery' });
  }

  async openGallery(): Promise<void> {
    // On a phone the Gallery is the bar's "Results" (docs/phone.md).
    const bar = this.page.getByRole('navigation', { name: 'Destinations' });
    const phone = await bar.isVisible();
    const button = phone
      ? bar.getByRole('button', { name: 'Results', exact: true })
      : this.page.getByRole('button', { name: 'Gallery', exact: true });
    await button.click();
    await expect(button).toHaveAttribute(phone ? 'aria-current' : 'aria-pressed', phone ? 'page' : 'true');
    await expect(this.gallery).toBeVisible();
  }

  get viewer(): Locator {
    return this.page.getByRole('dialog', { name: 'Viewer' });
  }

  /** Opens the Viewer on the gallery tile whose name starts with the prompt. */
  async view(prompt: string): Promise<Locator> {
    await this.gallery.getByRole('combobox', { name: 'Search prompts' }).fill(prompt);
    await this.gallery.getByRole('button', { name: new RegExp(`^${escape(prompt)}`) }).click();
    await expect(this.viewer).toBeVisible();
    return this.viewer.getByRole('region', { name: 'Comments', exact: true });
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Join = (
  who: { key: DemoKeyName; name: string },
  options?: { viewport?: Viewport; online?: boolean },
) => Promise<Member>;
type Viewport = { width: number; height: number };

const test = base.extend<{ join: Join }>({
  join: async ({ browser, demoKeys, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async ({ key, name }, options = {}) => {
      const context = await newContext(browser, baseURL!, options.viewport);
      contexts.push(context);
      const member = new Member(context, await context.newPage(), demoKeys, key, name);
      await member.join({ online: options.online ?? true });
      return member;
    });
    for (const context of contexts) await context.close();
  },
});

const newContext = (browser: Browser, baseURL: string, viewport?: Viewport) =>
  browser.newContext({ baseURL, ...(viewport ? { viewport } : {}) });

/** The sandbox's request log (GET /__sandbox/requests). */
async function requestLog(page: Page): Promise<LoggedRequest[]> {
  const res = await page.request.get(`${SANDBOX_ORIGIN}/__sandbox/requests`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as LoggedRequest[];
}

test("a team member's task shows in the other member's History and Gallery by name, without a poll of it, and By filters Me / a member / Everyone", async ({
  join,
}) => {
  const tag = uniquePrompt('shared');
  const anasPrompt = `${tag} lighthouse by Ana`;
  const bensPrompt = `${tag} ramen by Ben`;
  const ana = await join(ANA);
  const ben = await join(BEN);
  await expect(ana.status).toHaveText('Team space online · 2 of 2 members online');
  await expect(ben.membersButton).toHaveAccessibleName('Members: 2 online');

  await ana.makeTask(anasPrompt);
  const taskId = await ana.history.taskIdOf(ana.history.card(anasPrompt));
  expect(taskId).toMatch(/^task_/);
  await ben.makeTask(bensPrompt);

  // Ben's History: Ana's task, finished, with her name; his own without one.
  await ben.history.region.getByRole('combobox', { name: 'Search prompts' }).fill(tag);
  const anasCard = ben.history.card(anasPrompt);
  await ben.history.expectStatus(anasCard, 'succeeded', 15_000);
  await expect(anasCard.getByTestId('task-by')).toHaveText('by Ana');
  await expect(ben.history.card(bensPrompt).getByTestId('task-by')).toHaveCount(0);

  await ben.chooseBy(ben.by, 'Me');
  await expect(ben.history.cards).toHaveCount(1);
  await expect(ben.history.card(bensPrompt)).toHaveCount(1);
  await ben.chooseBy(ben.by, 'Ana');
  await expect(ben.history.cards).toHaveCount(1);
  await expect(ben.history.card(anasPrompt)).toHaveCount(1);
  await ben.chooseBy(ben.by, 'Everyone');
  await expect(ben.history.cards).toHaveCount(2);

  // Ben's Gallery: Ana's output, named with hers.
  await ben.openGallery();
  await ben.gallery.getByRole('combobox', { name: 'Search prompts' }).fill(tag);
  await expect(ben.gallery.getByRole('button', { name: `${anasPrompt}, by Ana` })).toBeVisible();
  const galleryBy = ben.gallery.getByRole('combobox', { name: 'By', exact: true });
  await ben.chooseBy(galleryBy, 'Me');
  await expect(ben.gallery.getByRole('button', { name: `${anasPrompt}, by Ana` })).toBeHidden();
  await expect(ben.gallery.getByRole('button', { name: bensPrompt, exact: true })).toBeVisible();
  await ben.chooseBy(galleryBy, 'Everyone');
  await expect(ben.gallery.getByRole('button', { name: `${anasPrompt}, by Ana` })).toBeVisible();

  // Ben's studio never asked the API about Ana's task: the team space brought it, finished.
  const log = await requestLog(ben.page);
  expect(log.some((r) => r.keyName === 'team' && r.path === `/v1/tasks/${taskId}`)).toBe(true);
  expect(log.filter((r) => r.keyName === 'team2' && r.path === `/v1/tasks/${taskId}`)).toEqual([]);
});

test("a personal key's team space holds none of the team's tasks, and it is online with 1 member", async ({
  join,
}) => {
  const tag = uniquePrompt('team only');
  const ana = await join(ANA);
  await ana.makeTask(`${tag} team task`);
  const pat = await join({ key: 'personal', name: 'Pat' });
  await expect(pat.status).toHaveText('Team space online · 1 of 1 member online');
  await expect(pat.membersButton).toHaveAccessibleName('Members: 1 online');
  // Nothing of the team's: not the task just made, and no "By" (no other member's tasks at all).
  await expect(pat.history.region.getByText(tag)).toHaveCount(0);
  await expect(pat.by).toHaveCount(0);
  await expect(pat.history.region.getByTestId('task-by')).toHaveCount(0);
  await pat.membersButton.click();
  const dialog = pat.page.getByRole('dialog', { name: 'Members' });
  await expect(dialog.getByRole('listitem')).toHaveText(['Pat (you)online']);
});

test('a team board shows on the other side within seconds; edits and blind votes from both show on both, and the Leaderboard counts one vote per member', async ({
  join,
}) => {
  test.setTimeout(120_000);
  const boardName = uniquePrompt('Team board');
  const ana = await join(ANA);
  const ben = await join(BEN);

  await ana.openCompare();
  await ana.compare.getByLabel('Board name', { exact: true }).fill(boardName);
  for (const label of ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1'])
    await ana.compare.getByRole('combobox', { name: 'Add model' }).selectOption({ label });

  await ben.openCompare();
  const bensItem = ben.teamBoards.getByRole('button', { name: new RegExp(`^${escape(boardName)}`) });
  await expect(bensItem).toBeVisible({ timeout: 5_000 });
  await bensItem.click();
  await expect(ben.compare.getByLabel('Board name', { exact: true })).toHaveValue(boardName);

  // One prompt each, at once: both prompts end on both sides.
  await ana.compare.getByLabel('Prompt 1', { exact: true }).fill('A lighthouse on a cliff at dusk');
  await ben.compare.getByRole('button', { name: 'Add prompt' }).click();
  await ben.compare.getByLabel('Prompt 2', { exact: true }).fill('A bowl of ramen, top view');
  for (const m of [ana, ben]) {
    await expect(m.compare.getByLabel('Prompt 1', { exact: true })).toHaveValue(
      'A lighthouse on a cliff at dusk',
    );
    await expect(m.compare.getByLabel('Prompt 2', { exact: true })).toHaveValue('A bowl of ramen, top view');
  }
  await expect(ana.compare.getByTestId('board-viewers')).toHaveText('Also open by Ben');

  await ana.compare.getByRole('button', { name: /^Run all/ }).click();
  for (const m of [ana, ben])
    await expect(m.compare.locator('[data-cell-state="succeeded"]')).toHaveCount(4, { timeout: 30_000 });

  // Ana names what the cells are scored on; it reaches Ben.
  await ana.compare.getByRole('button', { name: 'Criteria', exact: true }).click();
  const criteria = ana.page.getByRole('dialog', { name: 'Criteria' });
  await criteria.getByRole('button', { name: 'Add criterion' }).click();
  await criteria.getByRole('textbox', { name: 'Criterion 1' }).fill('Look');
  await criteria.getByRole('button', { name: 'Save criteria' }).click();
  await expect(criteria).toBeHidden();

  await ana.compare.getByRole('button', { name: 'Blind', exact: true }).click();
  for (const [m, score] of [
    [ana, 5],
    [ben, 3],
  ] as const) {
    await expect(m.compare.getByRole('button', { name: 'Reveal', exact: true })).toBeVisible();
    // Each scores the same cell blind: Ana by click, Ben by key (focus the group, type the score).
    const look = m.compare
      .getByRole('group', { name: 'Candidate A, prompt 1', exact: true })
      .getByRole('group', { name: 'Look', exact: true });
    if (m === ana)
      await look
        .locator('label')
        .filter({ has: m.page.getByRole('radio', { name: `${score} of 5` }) })
        .click();
    else {
      await look.getByRole('radio', { name: '1 of 5' }).focus();
      await m.page.keyboard.press(String(score));
    }
    await expect(look.getByRole('radio', { name: `${score} of 5` })).toBeChecked();
    // Blind: nobody sees the team's average yet.
    await expect(look.getByTestId('criterion-average')).toHaveCount(0);
    const best = m.compare
      .getByRole('group', { name: 'Candidate A, prompt 1', exact: true })
      .getByRole('button', { name: 'Best', exact: true });
    await best.click();
    await expect(best).toHaveAttribute('aria-pressed', 'true');
  }

  // Team: both votes (two models, no tie: each vote is one win and one loss); Mine: one.
  const winsOf = async (m: Member, scope: 'Team' | 'Mine') => {
    const dialog = m.page.getByRole('dialog', { name: 'Leaderboard' });
    await dialog
      .getByRole('group', { name: 'Whose votes' })
      .getByRole('button', { name: scope, exact: true })
      .click();
    const table = dialog.getByRole('table', { name: /^Leaderboard of / });
    const rows = await table.getByRole('row').all();
    let wins = 0;
    for (const row of rows.slice(1)) wins += Number(await row.getByRole('cell').nth(2).textContent());
    return wins;
  };
  for (const m of [ana, ben]) {
    await m.compare.getByRole('button', { name: 'Leaderboard', exact: true }).click();
    await expect.poll(() => winsOf(m, 'Team'), { message: `${m.name}: Team` }).toBe(2);
    await expect.poll(() => winsOf(m, 'Mine'), { message: `${m.name}: Mine` }).toBe(1);
    await m.page.keyboard.press('Escape');
  }

  // Ana reveals and decides, by keyboard; Ben, still blind, sees neither Decide nor the decision.
  await ana.compare.getByRole('button', { name: 'Reveal', exact: true }).click();
  await ana.compare.getByRole('button', { name: 'Decide', exact: true }).focus();
  await ana.page.keyboard.press('Enter');
  const dialog = ana.page.getByRole('dialog', { name: 'Decide' });
  const pressUntil = async (target: Locator) => {
    for (let i = 0; i < 8 && !(await target.evaluate((el) => el === document.activeElement)); i++)
      await ana.page.keyboard.press('Tab');
    await expect(target).toBeFocused();
  };
  await pressUntil(dialog.getByRole('radio', { name: 'Lumen Canvas · v2' }));
  await ana.page.keyboard.press('Space');
  await pressUntil(dialog.getByRole('textbox', { name: 'Reason' }));
  await ana.page.keyboard.type('Crisper light at dusk');
  await teamAxe(ana.page, 'decide dialog');
  await pressUntil(dialog.getByRole('button', { name: 'Save decision' }));
  await ana.page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const anasDecision = ana.compare.getByRole('region', { name: 'Decision' });
  await expect(anasDecision).toContainText('Chosen model: Lumen Canvas · v2 by Ana');
  // Ana reviews the cell Lumen Canvas drew for prompt 1, by keyboard too: Approve, with a note.
  const anasCell = ana.compare.getByRole('group', { name: 'Lumen Canvas v2, prompt 1', exact: true });
  await anasCell.getByTestId('cell-review').locator('summary').click();
  await anasCell.getByRole('button', { name: 'Approve', exact: true }).press('Enter');
  await anasCell.getByRole('textbox', { name: 'Review note' }).fill('Ship it');
  await anasCell.getByRole('textbox', { name: 'Review note' }).blur();
  await expect(anasCell.getByTestId('review-item')).toContainText(['Approved by You']);

  // Revealed to Ana: the cell both scored shows the average of both (5 and 3), Ben still sees none.
  await expect(ana.compare.getByTestId('criterion-average').filter({ hasText: 'Average 4 (2)' })).toHaveCount(
    1,
  );
  await expect(ben.compare.getByTestId('criterion-average')).toHaveCount(0);
  await teamAxe(ana.page, 'board with a decision');

  await expect(ben.compare.getByRole('button', { name: 'Reveal', exact: true })).toBeVisible();
  await expect(ben.compare.getByRole('button', { name: 'Decide', exact: true })).toHaveCount(0);
  await expect(ben.compare.getByRole('region', { name: 'Decision' })).toHaveCount(0);
  await ben.compare.getByRole('button', { name: 'Reveal', exact: true }).click();
  const bensDecision = ben.compare.getByRole('region', { name: 'Decision' });
  await expect(bensDecision).toContainText('Chosen model: Lumen Canvas · v2 by Ana');
  await expect(bensDecision).toContainText('Crisper light at dusk');
  await expect(ben.teamBoards.getByText('Chosen: Lumen Canvas · v2')).toBeVisible();
  // Ben sees Ana's review on that cell, by name, and adds his own; Ana sees both.
  const bensCell = ben.compare.getByRole('group', { name: 'Lumen Canvas v2, prompt 1', exact: true });
  await bensCell.getByTestId('cell-review').locator('summary').click();
  await expect(bensCell.getByTestId('review-item')).toContainText([/Approved by Ana.*Ship it/]);
  await bensCell.getByRole('button', { name: 'Needs changes', exact: true }).click();
  await expect(anasCell.getByTestId('review-item')).toHaveCount(2);
  await expect(anasCell.getByTestId('review-item').first()).toContainText('Needs changes: by Ben');
  await ben.compare.getByRole('button', { name: 'Model report', exact: true }).click();
  const report = ben.page.getByRole('dialog', { name: 'Model report' });
  await expect(report.getByRole('row', { name: /Lumen Canvas.*Chosen/ })).toBeVisible();
  await expect(report.getByRole('columnheader', { name: 'Look (1-5)' })).toBeVisible();
  await expect(report.getByRole('cell', { name: /^4\s*2 scores$/ })).toHaveCount(1);

  // Ben's exported page holds both members' evidence and opens with every request refused.
  const download = ben.page.waitForEvent('download');
  await report.getByRole('button', { name: 'Export report (HTML page with images)' }).click();
  const html = await readFile(await (await download).path(), 'utf8');
  const offline = await ben.context.newPage();
  const requested: string[] = [];
  await offline.route('**/*', (route) => {
    requested.push(route.request().url());
    return route.abort();
  });
  await offline.setContent(html, { waitUntil: 'load' });
  await expect(offline.getByRole('heading', { level: 1 })).toHaveText(boardName);
  await expect(offline.getByText(/Chosen model: Lumen Canvas · v2/)).toBeVisible();
  await expect(offline.getByText('Crisper light at dusk')).toBeVisible();
  const rows = offline.locator('table.figures tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(offline.locator('table.figures thead')).toContainText('Look (1-5)');
  // Both members' votes on prompt 1 (both for Candidate A) are in the table.
  await expect(offline.locator('table.figures')).toContainText('2 / 0 / 0');
  await expect(offline.locator('table.figures')).toContainText('0 / 2 / 0');
  // The reviews of the cell both reviewed, under its picture, by name (Ben's own too: the page is read
  // by people outside the studio).
  await expect(offline.locator('table.outputs .reviews li')).toHaveText([
    'Needs changes: by Ben',
    'Approved by Ana Ship it',
  ]);
  const pictures = offline.locator('table.outputs img');
  await expect(pictures).toHaveCount(4);
  await expect
    .poll(() =>
      pictures.evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).every((img) => img.complete && img.naturalWidth > 0),
      ),
    )
    .toBe(true);
  expect(requested).toEqual([]);
  await offline.close();
});

test('a comment on an output in the Viewer, a reply from the other member and Resolve show on both sides', async ({
  join,
}) => {
  const prompt = uniquePrompt('commented lighthouse');
  const ana = await join(ANA);
  const ben = await join(BEN);
  await ana.makeTask(prompt);

  await ana.openGallery();
  const anasComments = await ana.view(prompt);
  await anasComments.getByRole('textbox', { name: 'Comment', exact: true }).fill('The sky is too green.');
  await anasComments.getByRole('button', { name: 'Add comment', exact: true }).click();
  await expect(anasComments.getByText('The sky is too green.')).toBeVisible();

  await ben.openGallery();
  const bensComments = await ben.view(prompt);
  const bensThread = bensComments.getByRole('article', { name: 'Thread by Ana' });
  await expect(bensThread).toContainText('The sky is too green.', { timeout: 5_000 });
  await bensThread.getByRole('button', { name: 'Reply', exact: true }).click();
  await bensThread.getByRole('textbox', { name: 'Reply', exact: true }).fill('Agreed, try dusk.');
  await bensThread.getByRole('button', { name: 'Add reply', exact: true }).click();
  await expect(bensThread.getByText('Agreed, try dusk.')).toBeVisible();

  const anasThread = anasComments.getByRole('article', { name: 'Thread by Ana' });
  await expect(anasThread).toContainText('Agreed, try dusk.');
  await anasThread.getByRole('button', { name: 'Resolve', exact: true }).click();
  for (const thread of [anasThread, bensThread]) {
    await expect(thread).toContainText('Resolved by Ana');
    await expect(thread.getByRole('button', { name: 'Reopen', exact: true })).toBeVisible();
  }
});

test("lineage, tags and saved searches are the team's: Ben sees what Ana's cutout was made from, her tag and her saved search, and Ana sees his tag", async ({
  join,
}) => {
  test.setTimeout(180_000);
  const ana = await join(ANA);
  const ben = await join(BEN);
  const word = uniquePrompt('kite').split(' ')[1]!;
  const imagePrompt = `a red kite ${word}`;
  const cutoutPrompt = `the kite cut out ${word}`;
  const anasTag = `kites-${word}`;
  const bensTag = `pick-${word}`;

  // Ana: an image, then a cutout made from it ("Use as input").
  await ana.makeTask(imagePrompt);
  await ana.studio.openModel('Cutout', 'image/edit-image');
  const detail = await ana.history.openDetail(ana.history.card(imagePrompt));
  await detail.getByRole('button', { name: 'Use as input', exact: true }).click();
  await expect(detail).toBeHidden();
  await generate(ana.studio, cutoutPrompt);
  await ana.history.expectStatus(ana.history.card(cutoutPrompt), 'succeeded', TASK_TIMEOUT);

  // Ana tags the cutout in the Viewer and saves a search for the tag.
  await ana.openGallery();
  await ana.view(cutoutPrompt);
  await ana.viewer.getByRole('button', { name: 'Add tag', exact: true }).click();
  await ana.viewer.getByRole('textbox', { name: 'New tag' }).fill(anasTag);
  await ana.page.keyboard.press('Enter');
  await expect(ana.viewer.getByRole('list', { name: 'Tags' })).toContainText(anasTag);
  await ana.page.keyboard.press('Escape');
  await ana.page.keyboard.press('Escape');
  await expect(ana.viewer).toBeHidden();
  const anasBox = ana.gallery.getByRole('combobox', { name: 'Search prompts' });
  await anasBox.fill(`tag:${anasTag}`);
  await expect(ana.gallery.getByTestId('gallery-tile')).toHaveCount(1);
  await ana.gallery.getByRole('button', { name: 'Save search' }).click();
  await ana.gallery.getByRole('textbox', { name: 'Name of the search' }).fill(`Kites ${word}`);
  await ana.page.keyboard.press('Enter');

  // Ben: the cutout made from the image, in its family tree too, with Ana's tag (not his to remove).
  await ben.openGallery();
  await ben.view(cutoutPrompt);
  await expect(ben.viewer.getByRole('region', { name: 'Made from' })).toContainText(imagePrompt, {
    timeout: 15_000,
  });
  const bensTags = ben.viewer.getByRole('list', { name: 'Tags' });
  await expect(bensTags).toContainText(anasTag);
  await expect(ben.viewer.getByRole('button', { name: `Remove tag ${anasTag}` })).toHaveCount(0);
  await ben.viewer.getByRole('button', { name: 'Family tree' }).click();
  const tree = ben.viewer.getByRole('region', { name: 'Family tree' });
  await expect(tree.locator(':scope > ul > li > button')).toContainText(imagePrompt);
  await expect(tree.locator('li[aria-current="true"]')).toContainText(cutoutPrompt);
  // Ben adds a tag of his own.
  await ben.viewer.getByRole('button', { name: 'Add tag', exact: true }).click();
  await ben.viewer.getByRole('textbox', { name: 'New tag' }).fill(bensTag);
  await ben.page.keyboard.press('Enter');
  await expect(ben.viewer.getByRole('button', { name: `Remove tag ${bensTag}` })).toBeVisible();
  await ben.page.keyboard.press('Escape');
  await ben.page.keyboard.press('Escape');
  await expect(ben.viewer).toBeHidden();

  // Ben's saved searches hold Ana's, by her, counting the cutout; it is hers to delete, not his.
  const bensBox = ben.gallery.getByRole('combobox', { name: 'Search prompts' });
  await bensBox.fill('');
  await ben.gallery.getByRole('button', { name: /^Saved searches/ }).click();
  const saved = ben.gallery.getByRole('list', { name: 'Saved searches' });
  const anasSearch = saved.getByRole('button', { name: new RegExp(`^Kites ${word}`) });
  await expect(anasSearch).toContainText('by Ana');
  await expect(anasSearch.getByTestId('saved-count')).toHaveText('1');
  await expect(saved.getByRole('button', { name: `Delete saved search Kites ${word}` })).toHaveCount(0);
  await anasSearch.click();
  await expect(bensBox).toHaveValue(`tag:${anasTag}`);
  await expect(ben.gallery.getByTestId('gallery-tile')).toHaveCount(1);

  // Ana sees Ben's tag on her cutout, and finds it by it.
  await anasBox.fill(`tag:${bensTag}`);
  await expect(ana.gallery.getByTestId('gallery-tile')).toHaveCount(1, { timeout: 15_000 });
  await ana.view(cutoutPrompt);
  await expect(ana.viewer.getByRole('list', { name: 'Tags' })).toContainText(bensTag);
  await expect(ana.viewer.getByRole('button', { name: `Remove tag ${bensTag}` })).toHaveCount(0);
});

test('an edit made offline is merged on return, beside the edit the other member made meanwhile', async ({
  join,
}) => {
  const boardName = uniquePrompt('Offline board');
  const ana = await join(ANA);
  const ben = await join(BEN);
  await ana.openCompare();
  await ana.compare.getByLabel('Board name', { exact: true }).fill(boardName);
  await ana.compare.getByRole('combobox', { name: 'Add model' }).selectOption({ label: 'Lumen Canvas · v2' });
  await ana.compare.getByLabel('Prompt 1', { exact: true }).fill('A harbour at dawn');
  await ana.compare.getByRole('button', { name: 'Add prompt' }).click();
  await ben.openCompare();
  await ben.teamBoards.getByRole('button', { name: new RegExp(`^${escape(boardName)}`) }).click();
  await expect(ben.compare.getByLabel('Prompt 2', { exact: true })).toBeVisible();

  await ana.context.setOffline(true);
  await expect(ana.status).toHaveText(/^Team space offline since /, { timeout: 45_000 });
  // Offline, Ana cannot know who else is online: only she counts.
  await expect(ana.membersButton).toHaveAccessibleName('Members: 1 online');
  await ana.compare.getByLabel('Prompt 2', { exact: true }).fill('Written offline by Ana');
  await ben.compare.getByLabel('Prompt 1', { exact: true }).fill('A harbour at dawn, rewritten by Ben');
  await expect(ben.compare.getByLabel('Prompt 2', { exact: true })).toHaveValue('');
  await expect(ana.compare.getByLabel('Prompt 1', { exact: true })).toHaveValue('A harbour at dawn');

  await ana.context.setOffline(false);
  await expect(ana.status).toHaveText('Team space online · 2 of 2 members online', { timeout: 45_000 });
  for (const m of [ana, ben]) {
    await expect(m.compare.getByLabel('Prompt 1', { exact: true })).toHaveValue(
      'A harbour at dawn, rewritten by Ben',
    );
    await expect(m.compare.getByLabel('Prompt 2', { exact: true })).toHaveValue('Written offline by Ana');
  }
});

test('a key the team space refuses: the status line says why in plain words', async ({ join }) => {
  // The orphan key connects to the studio (GET /me answers, its project is gone), but the team-space
  // server does not admit a key whose project was deleted.
  const orphan = await join({ key: 'unbound', name: 'Olga' }, { online: false });
  await expect(orphan.status).toHaveText(
    "This key's project was deleted: the team space does not admit it. Revoke it and create a key bound to an existing project.",
  );
  // A refused key is in no team space: no "Members" to open.
  await expect(orphan.membersButton).toHaveCount(0);
  await teamAxe(orphan.page, 'status line refused');
});

// --- Accessibility: axe on every screen of the team space -----------------------------------------

/** axe in light and dark (axe-helpers.ts); with TEAM_SHOTS set, a screenshot of each into that folder. */
const teamAxe = (page: Page, screen: string) =>
  expectNoSeriousViolations(page, screen, { shotsDir: process.env.TEAM_SHOTS });

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`axe finds no serious violation on the team space's screens at ${viewport.width} px, light and dark`, async ({
    join,
  }) => {
    test.setTimeout(300_000);
    const prompt = uniquePrompt('accessible lighthouse');
    const ben = await join(BEN);
    const ana = await join(ANA, { viewport });
    const page = ana.page;
    // A task of Ben's: Ana's History and Gallery offer "By".
    await ben.makeTask(uniquePrompt("Ben's lighthouse"));
    await ana.makeTask(prompt);

    const account = await ana.studio.openAccount();
    await expect(account.getByRole('switch', { name: 'Team space' })).toBeChecked();
    await teamAxe(page, 'account dialog with the team space on');
    await page.keyboard.press('Escape');

    await ana.membersButton.click();
    await expect(page.getByRole('dialog', { name: 'Members' }).getByRole('listitem')).toHaveCount(2);
    await teamAxe(page, 'members dialog');
    await page.keyboard.press('Escape');

    await expect(ana.status).toHaveText(/^Team space online/);
    await expect(ana.by).toBeVisible();
    await teamAxe(page, 'history with By and the status line');

    await ana.openGallery();
    const comments = await ana.view(prompt);
    await comments.getByRole('textbox', { name: 'Comment', exact: true }).fill('Lovely light.');
    await comments.getByRole('button', { name: 'Add comment', exact: true }).click();
    await expect(comments.getByText('Lovely light.')).toBeVisible();
    await teamAxe(page, 'viewer with comments');
    await page.keyboard.press('Escape');
    await expect(ana.viewer).toBeHidden();
    // Out of the gallery: the header's toggle, or on a phone the bar's "Create".
    await page.getByRole('button', { name: /^(Gallery|Create)$/ }).click();

    await ana.openCompare();
    const boardName = uniquePrompt('Accessible board');
    await ana.compare.getByLabel('Board name', { exact: true }).fill(boardName);
    await ana.compare
      .getByRole('combobox', { name: 'Add model' })
      .selectOption({ label: 'Lumen Canvas · v2' });
    await expect(
      ana.teamBoards.getByRole('button', { name: new RegExp(`^${escape(boardName)}`) }),
    ).toContainText('1 model · 1 prompt');
    await teamAxe(page, 'compare with team boards');
    await ana.compare.getByRole('button', { name: 'Criteria', exact: true }).click();
    const criteria = page.getByRole('dialog', { name: 'Criteria' });
    await criteria.getByRole('button', { name: 'Add criterion' }).click();
    await criteria.getByRole('textbox', { name: 'Criterion 1' }).fill('Look');
    await teamAxe(page, 'criteria dialog');
    await criteria.getByRole('button', { name: 'Save criteria' }).click();
    await ana.compare.getByRole('button', { name: 'Model report', exact: true }).click();
    const report = page.getByRole('dialog', { name: 'Model report' });
    await report.getByRole('radio', { name: /^All boards of / }).check();
    await expect(report.getByText(/^Every board of this category you can see the results of/)).toBeVisible();
    await teamAxe(page, 'model report over the category');
    await page.keyboard.press('Escape');

    await ana.context.setOffline(true);
    await expect(ana.status).toHaveText(/^Team space offline since /, { timeout: 45_000 });
    await teamAxe(page, 'status line offline');
    await ana.context.setOffline(false);
    await expect(ben.status).toHaveText(/^Team space online/);
  });
}

test("the team's queue: each member sees what the other holds in their own queue, by name", async ({
  join,
}) => {
  const ana = await join(ANA);
  const ben = await join(BEN);
  const hold = async (m: Member, count: number) => {
    const queue = m.page.getByRole('region', { name: 'Queue', exact: true });
    await m.studio.openModel('Lumen Canvas');
    await queue.getByRole('button', { name: 'Pause queue' }).click();
    await expect(queue.getByRole('button', { name: 'Resume queue' })).toBeVisible();
    for (let i = 0; i < count; i++) {
      const prompt = uniquePrompt(`team held ${m.name} ${i}`);
      await m.studio.prompt.fill(prompt);
      await m.page.getByRole('button', { name: 'Generate', exact: true }).click();
      await expect(queue.getByRole('list', { name: 'Held tasks' }).getByText(prompt)).toBeVisible();
    }
  };
  await hold(ana, 2);
  await hold(ben, 3);
  const held = (m: Member) => m.history.region.getByTestId('team-queue-held');
  await expect(held(ana)).toContainText('Ben 3', { timeout: 15_000 });
  await expect(held(ana)).toContainText('You 2');
  await expect(held(ben)).toContainText('Ana 2', { timeout: 15_000 });
  await expect(held(ben)).toContainText('You 3');
});
