import { SANDBOX_ORIGIN, expect, test, type Studio } from './fixtures';
import { mp4, png, withBlockMark } from './media-helpers';
import { TASK_TIMEOUT, disconnect, generate, uniquePrompt } from './task-helpers';
import { historyFile, importHistory, runCutout, seedImages } from './gallery-helpers';
import { expectNoSeriousViolations } from './axe-helpers';

// Accessibility (product-notes §3 "Everywhere": keyboard-only use works; dark mode follows the system):
// axe finds no serious or critical violation on any screen or dialog of the studio, in light and in
// dark, at 1280 px and at phone width: connect, catalog tabs and their empty and error states, a form of
// every category with its media fields in each state, quote warnings, the submit bar's answers, History
// cards of every kind with their detail view, every dialog, Describe image, Compare. Each screen is
// checked in both schemes: switching prefers-color-scheme restyles the page in place. Screens share a
// test where one leads to the next, to keep the run short.

// Each screen runs axe twice (light, dark); axe 4.14 on a loaded 2-core machine can take tens of
// seconds per run, so these tests get a time limit that measures nothing (the bench measures speed).
test.describe.configure({ timeout: 240_000 });

test('the connect screen, with an error shown', async ({ studio, page }) => {
  await studio.goto();
  await expectNoSeriousViolations(page, 'connect screen');
  await studio.fillKey(studio.keyOf('revoked'));
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoSeriousViolations(page, 'connect screen with an error');

  // A Base URL outside the allowed API origins: the note with its remedy, at desktop and phone width.
  await page.getByLabel('Base URL').fill('https://staging.example.com/v1');
  await expect(
    page.getByText('This studio is not allowed to call https://staging.example.com'),
  ).toBeVisible();
  await expectNoSeriousViolations(page, 'connect screen with a Base URL the CSP would block');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolations(page, 'connect screen with a blocked Base URL, phone width');
});

test('the axe check itself fails on a planted serious violation (a button without a name)', async ({
  studio,
  page,
}) => {
  await studio.goto();
  // Outside the studio's root: the prerendered connect screen is replaced as React mounts, and a button
  // planted in its <main> could go with it before axe runs (it did once in a CI run).
  await page.evaluate(() => {
    const button = document.createElement('button');
    button.className = 'planted';
    document.body.append(button);
  });
  await expect(expectNoSeriousViolations(page, 'planted')).rejects.toThrow(/button-name[\s\S]*\.planted/);
});

test('a model form with its quote, the Copy request dialog and the account dialog', async ({
  studio,
  page,
}) => {
  await studio.start('capped');
  await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('A lighthouse at dusk');
  await expect(studio.quote.getByTestId('quote-credits')).toBeVisible();
  await expect(studio.quote.getByText('updating')).toBeHidden();
  await expectNoSeriousViolations(page, 'catalog with a model form open');

  await studio.copyRequestButton.click();
  const copy = page.getByRole('dialog', { name: 'Copy request' });
  await expect(copy).toBeVisible();
  await expectNoSeriousViolations(page, 'Copy request dialog');
  await page.keyboard.press('Escape');
  await expect(copy).toBeHidden();

  await studio.openAccount();
  await expectNoSeriousViolations(page, 'account dialog');
});

test('the AI tools and Templates tabs, with an item open; a search with no match; a list that failed', async ({
  studio,
  sandbox,
  page,
}) => {
  await studio.start('personal');
  await studio.openTool('Style transfer');
  await expectNoSeriousViolations(page, 'AI tools tab');

  await studio.openTemplate('Neon city poster');
  await expectNoSeriousViolations(page, 'Templates tab');

  await studio.search.fill('nothing in the catalog is called this');
  await expect(studio.panel('Templates').getByRole('button', { name: 'Clear search' })).toBeVisible();
  await expectNoSeriousViolations(page, 'catalog search with no match');
  await studio.search.clear();

  // A 500 is not retried (api-notes §7): the category's list shows the error and "Try again".
  await sandbox.fault({ method: 'GET', path: '/v1/models', status: 500, count: 1 });
  await studio.chooseCategory('audio/music');
  await expect(studio.panel('Models').getByRole('button', { name: 'Try again' })).toBeVisible();
  await expectNoSeriousViolations(page, 'a catalog list that failed to load');
});

test('media fields: ready, blocked, the library, the mask painter and Describe image', async ({
  studio,
  page,
}) => {
  await studio.start('personal');
  const form = await studio.openModel('Inpaint', 'image/edit-image');
  const source = form.getByRole('group', { name: 'Source image' });
  await source.getByLabel('Upload file', { exact: true }).setInputFiles(await png(320, 240, 'room.png'));
  await expect(source.getByRole('status')).toContainText('room.png is ready.');
  const mask = form.getByRole('group', { name: 'Mask' });
  await mask.getByLabel('Upload file', { exact: true }).setInputFiles(withBlockMark(await png(32, 32)));
  await expect(mask.getByRole('status')).toContainText('blocked');
  await expectNoSeriousViolations(page, 'edit form with an upload ready and one blocked');

  await mask.getByRole('button', { name: 'From library' }).click();
  const library = page.getByRole('dialog', { name: 'Library: images' });
  await expect(library.getByRole('button', { name: /^Use room\.png/ })).toBeVisible();
  await expectNoSeriousViolations(page, 'library dialog');
  await page.keyboard.press('Escape');

  await mask.getByRole('button', { name: 'Paint mask' }).click();
  const painter = page.getByRole('dialog', { name: 'Paint Mask' });
  await expect(painter.getByLabel('Mask painting area')).toBeVisible();
  await expectNoSeriousViolations(page, 'mask painter');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Describe image' }).click();
  await expect(page.getByRole('dialog', { name: 'Describe image' })).toBeVisible();
  await expectNoSeriousViolations(page, 'Describe image dialog');
});

test('a compare board with results and failed cells', async ({ studio, page }) => {
  await studio.start('personal');
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  const add = board.getByRole('combobox', { name: 'Add model' });
  for (const label of ['Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
    await add.selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill('A quiet harbour at dawn');
  // A second prompt fails (product-notes §4 "[fail]"): failed cells, with their Rerun, are on the board too.
  await board.getByRole('button', { name: 'Add prompt' }).click();
  await board.getByLabel('Prompt 2', { exact: true }).fill('A red kite [fail]');
  await board.getByRole('button', { name: /^Run all \(/ }).click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
  await expect(board.locator('[data-cell-state="failed"]')).toHaveCount(2, { timeout: 30_000 });
  await expectNoSeriousViolations(page, 'compare board with succeeded and failed cells');
});

test('the History with a finished image, video and audio card, and the detail view of each', async ({
  studio,
  page,
  history,
}) => {
  await studio.start('personal');
  const runs = [
    { kind: 'image', model: 'Lumen Canvas', category: 'image/default', prompt: uniquePrompt('a lighthouse') },
    { kind: 'video', model: 'Dream', category: 'video/text-ref', prompt: uniquePrompt('waves rolling in') },
    { kind: 'audio', model: 'Composer', category: 'audio/music', prompt: uniquePrompt('a calm piano loop') },
  ];
  for (const run of runs) {
    await studio.openModel(run.model, run.category);
    await generate(studio, run.prompt);
  }
  for (const run of runs) await history.expectStatus(history.card(run.prompt), 'succeeded');
  await expectNoSeriousViolations(page, 'History with an image, a video and an audio card');

  for (const run of runs) {
    const dialog = await history.openDetail(history.card(run.prompt));
    await expect(dialog.getByRole('button', { name: 'Download', exact: true })).toBeVisible();
    await expectNoSeriousViolations(page, `task detail of the ${run.kind} task`);
    await history.closeDetail(dialog);
  }
});

test('the submit bar refused and waiting, failed and cancelled cards with their detail, the History filtered to nothing', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  await studio.start('personal');
  const form = await studio.openModel('Lumen Canvas');
  const failed = uniquePrompt('this one breaks [fail]');
  const cancelled = uniquePrompt('this one stops [cancel]');
  await generate(studio, failed);
  await generate(studio, cancelled);
  await history.expectStatus(history.card(failed), 'failed');
  await history.expectStatus(history.card(cancelled), 'cancelled');

  // 422 moderation_blocked at submit (product-notes §4): the submit bar says so, nothing is charged.
  await studio.prompt.fill('a poster [blocked]');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(
    form.getByText('The prompt was blocked by the content policy. Nothing was charged.'),
  ).toBeVisible();
  await expectNoSeriousViolations(page, 'submit refused; History with a failed and a cancelled card');

  let dialog = await history.openDetail(history.card(failed));
  await dialog.getByText('Raw JSON', { exact: true }).click();
  await expect(dialog.getByTestId('raw-json')).toBeVisible();
  await expectNoSeriousViolations(page, 'task detail of a failed task, raw JSON open');
  await history.closeDetail(dialog);
  dialog = await history.openDetail(history.card(cancelled));
  await expectNoSeriousViolations(page, 'task detail of a cancelled task');
  await history.closeDetail(dialog);

  // A submit whose outcome is unknown (a 500, and every re-send too) waits in the outbox as "Sending".
  await sandbox.fault({ method: 'POST', path: '/v1/tasks', status: 500, count: 10 });
  await studio.prompt.fill(uniquePrompt('no answer yet'));
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(form.getByText('No answer from the service yet.')).toBeVisible();
  await expect(history.region.getByRole('list', { name: 'Sending' })).toBeVisible();
  await history.region.getByRole('combobox', { name: 'Search prompts' }).fill('nothing matches this');
  await expect(history.region.getByText('No tasks match these filters.')).toBeVisible();
  await history.region.getByLabel('Import history file').setInputFiles({
    name: 'not-a-history.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ not json'),
  });
  await expect(page.getByRole('region', { name: /^Notices/ })).toContainText('Could not import');
  await expectNoSeriousViolations(
    page,
    'a submit with no answer, History filtered to nothing, an import error',
  );
});

/** Opens a model's form and waits for its quote (or its "complete the required fields" note). */
async function openForm(studio: Studio, name: string, category: string) {
  const form = await studio.openModel(name, category);
  await expect(studio.quote.getByText('updating')).toBeHidden();
  return form;
}

test('the forms of the image-svg and video categories, with their media fields', async ({
  studio,
  page,
  sandbox,
}) => {
  test.setTimeout(360_000);
  const clip = await mp4(sandbox, page);
  await studio.start('personal');

  let form = await openForm(studio, 'Vector', 'image/image-svg');
  await expect(form.getByText('unrecognised parameter type color_hex')).toBeVisible();
  await expectNoSeriousViolations(page, 'image-svg form with an unrecognised param type');

  form = await openForm(studio, 'Dream', 'video/text-ref');
  const references = form.getByRole('group', { name: 'Reference images' });
  await references
    .getByLabel('Upload file', { exact: true })
    .setInputFiles([await png(64, 48, 'one.png'), await png(48, 64, 'two.png')]);
  await expect(references.getByRole('button', { name: 'Remove Reference images 2' })).toBeVisible();
  await expectNoSeriousViolations(page, 'video text-ref form with two reference images');

  form = await openForm(studio, 'Puppeteer', 'video/motion-control');
  const motion = form.getByRole('group', { name: 'Motion reference' });
  await motion.getByLabel('Upload file', { exact: true }).setInputFiles(clip);
  // Video waits for moderation: the first check of the upload comes after 5 s (product-notes §3 "Uploads").
  await expect(motion.getByRole('status')).toContainText('clip.mp4 is ready.', { timeout: 30_000 });
  await expectNoSeriousViolations(page, 'video motion-control form with a video ready');

  form = await openForm(studio, 'Keyframe', 'video/first-last-frame');
  const first = form.getByRole('group', { name: 'First frame' });
  await first.getByLabel('Upload file', { exact: true }).setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not an image'),
  });
  await expect(first.getByRole('status')).toContainText('notes.txt');
  await expectNoSeriousViolations(page, 'video first-last-frame form with a file refused');

  form = await openForm(studio, 'LipSync', 'video/audio-lipsync');
  const speech = form.getByRole('group', { name: 'Speech audio' });
  await speech.getByRole('button', { name: 'From library' }).click();
  const library = page.getByRole('dialog', { name: 'Library: audio files' });
  await expect(library.getByText(/No audio files yet/)).toBeVisible();
  await expectNoSeriousViolations(page, 'empty audio library dialog');
  await page.keyboard.press('Escape');
  await expect(library).toBeHidden();
  await expectNoSeriousViolations(page, 'video audio-lipsync form');

  for (const [name, category] of [
    ['Extend', 'video/extend-video'],
    ['Restyle', 'video/video-edit'],
  ] as const) {
    await openForm(studio, name, category);
    await expectNoSeriousViolations(page, `${category} form`);
  }
});

test('the forms of the audio categories: the voice picker, a custom voice and a recording', async ({
  studio,
  page,
}) => {
  await studio.start('personal');

  let form = await openForm(studio, 'Voice', 'audio/text-to-speech');
  await expect(form.getByRole('button', { name: /^Play preview of / })).toBeVisible();
  await expectNoSeriousViolations(page, 'text-to-speech form with the voice picker');
  await form.getByRole('combobox', { name: 'Voice', exact: true }).selectOption({
    label: 'Custom voice (audio file)…',
  });
  await expect(form.getByRole('button', { name: 'Record' })).toBeVisible();
  await expectNoSeriousViolations(page, 'text-to-speech form with a custom voice');

  form = await openForm(studio, 'Twin', 'audio/voice-clone');
  await form.getByRole('button', { name: 'Record' }).click();
  await expect(form.getByRole('button', { name: /^Stop recording/ })).toBeVisible();
  await expectNoSeriousViolations(page, 'voice-clone form while recording');

  for (const [name, category] of [
    ['Foley', 'audio/sound-effect'],
    ['Composer', 'audio/music'],
  ] as const) {
    await openForm(studio, name, category);
    await expectNoSeriousViolations(page, `${category} form`);
  }
});

test('the Describe image dialog with a result, then with a refusal', async ({ studio, page }) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  await page.getByRole('button', { name: 'Describe image' }).click();
  const dialog = page.getByRole('dialog', { name: 'Describe image' });
  const image = dialog.getByRole('group', { name: 'Image' });
  await image.getByLabel('Upload file', { exact: true }).setInputFiles(await png(300, 200, 'sunset.png'));
  await expect(image.getByRole('status')).toContainText('sunset.png is ready.');
  await dialog.getByRole('button', { name: 'Describe', exact: true }).click();
  await expect(dialog.getByRole('region', { name: 'Description' })).toContainText('1 credit charged');
  await expectNoSeriousViolations(page, 'Describe image dialog with a result');

  const refused = await png(64, 64, 'refuse.png');
  await image
    .getByLabel('Upload file', { exact: true })
    .setInputFiles({ ...refused, buffer: Buffer.concat([refused.buffer, Buffer.from('SANDBOX-REFUSE')]) });
  await expect(image.getByRole('status')).toContainText('refuse.png is ready.');
  await dialog.getByRole('button', { name: 'Describe', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('The credit was refunded.');
  await expectNoSeriousViolations(page, 'Describe image dialog with a refusal');
});

test('Compare: a setup before running, the saved boards list and a board not on this device', async ({
  studio,
  page,
}) => {
  await studio.start('personal');
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  await expect(board.getByText(/^Choose 2 to 8 models/)).toBeVisible();
  await expectNoSeriousViolations(page, 'a new, empty board');

  const add = board.getByRole('combobox', { name: 'Add model' });
  for (const label of ['Lumen Canvas · v2', 'Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
    await add.selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill('A lighthouse on a cliff at dusk');
  await board.getByRole('button', { name: 'Add prompt' }).click();
  await board.getByLabel('Prompt 2', { exact: true }).fill('A bowl of ramen, top view');
  await board.getByText('Only for Lumen Canvas · v2').click();
  await board.getByRole('button', { name: 'Share link' }).click();
  await expect(board.getByRole('textbox', { name: 'Share link' })).toBeVisible();
  await expect(board.getByRole('button', { name: /^Run all \(6 cells · / })).toBeEnabled();
  await expectNoSeriousViolations(page, 'a board set up, before running');

  const boards = page.getByRole('navigation', { name: 'Boards' });
  await expect(boards.getByRole('button', { name: /^Delete board / })).toHaveCount(1);
  await boards.getByRole('button', { name: 'New board' }).click();
  await expect(board.getByRole('list', { name: 'Chosen models' })).toBeHidden();
  await expectNoSeriousViolations(page, 'the saved boards list beside a new board');

  await page.goto('/?compare=board-that-is-not-here');
  await expect(board.getByText('This board is not on this device for this key.')).toBeVisible();
  await expectNoSeriousViolations(page, 'a board not on this device');
});

test('keys in trouble and the quote warnings: expiring, unbound, team, no credits', async ({
  studio,
  page,
}) => {
  await studio.start('expiring');
  await expect(page.getByText(/^This key expires in \d days?\.$/)).toBeVisible();
  await expectNoSeriousViolations(page, 'studio with an expiring key');
  await disconnect(studio);

  await studio.connect('unbound');
  await expect(page.getByText("This key's project has been deleted.").first()).toBeVisible();
  await studio.openAccount();
  await expectNoSeriousViolations(page, 'account dialog of an unbound key');
  await page.keyboard.press('Escape');
  await disconnect(studio);

  await studio.connect('team');
  const account = await studio.openAccount();
  await expect(account.getByText('Team balance')).toBeVisible();
  await expectNoSeriousViolations(page, 'account dialog of a team key');
  await page.keyboard.press('Escape');
  await disconnect(studio);

  await studio.connect('broke');
  await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('A lighthouse at dusk');
  await expect(studio.quote.getByText('Not enough credits')).toBeVisible();
  await expectNoSeriousViolations(page, 'quote with a warning');
  // Invalid now (the prompt is required): the last price stays, with a note to fix the form.
  await studio.prompt.fill('');
  await expect(studio.quote.getByText('Fix the form to update the price.')).toBeVisible();
  await expectNoSeriousViolations(page, 'an invalid form under a stale quote');
});

test('a phone-width screen: connect, the studio with a task, its detail dialog and Compare', async ({
  studio,
  page,
  history,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await studio.goto();
  await expectNoSeriousViolations(page, 'connect screen at phone width');
  await studio.connect('personal');
  // The header fits: the balance is read whole, not cut at the screen's edge.
  const account = await studio.accountButton.boundingBox();
  expect(account!.x + account!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await studio.openModel('Lumen Canvas');
  const prompt = uniquePrompt('a lighthouse on a phone');
  await generate(studio, prompt);
  await history.expectStatus(history.card(prompt), 'succeeded', TASK_TIMEOUT);
  await expectNoSeriousViolations(page, 'studio at phone width, with a task');

  const dialog = await history.openDetail(history.card(prompt));
  await expectNoSeriousViolations(page, 'task detail at phone width');
  await history.closeDetail(dialog);

  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  const add = board.getByRole('combobox', { name: 'Add model' });
  for (const label of ['Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
    await add.selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill('A quiet harbour at dawn');
  await expect(board.getByRole('button', { name: /^Run all \(/ })).toBeEnabled();
  await expectNoSeriousViolations(page, 'compare board at phone width');
});

test('the Connection line while the service cannot be reached', async ({ studio, sandbox, page }) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  await sandbox.outage(15_000);
  // The quote of the new prompt finds the service gone.
  await studio.prompt.fill('A lighthouse in a storm');
  await expect(page.getByRole('status', { name: 'Connection' })).toContainText("Can't reach the service", {
    timeout: 15_000,
  });
  await expectNoSeriousViolations(page, 'the Connection line');
  // The sandbox is back before the next test.
  await sandbox.waitUntilUp();
});

test.describe('Usage, a blind board and the Leaderboard', () => {
  for (const size of [
    { name: 'desktop', width: 1280, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`at ${size.name} width`, async ({ studio, page, history }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await studio.start('capped');
      await studio.openModel('Lumen Canvas');
      const prompt = uniquePrompt('a usage sample');
      await generate(studio, prompt);
      await history.expectStatus(history.card(prompt), 'succeeded', TASK_TIMEOUT);

      await page.getByRole('button', { name: 'Usage', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Usage', exact: true })).toBeVisible();
      await expect(page.getByRole('table', { name: /^Usage per key/ })).toBeVisible();
      if (size.name === 'phone')
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          size.width,
        );
      await expectNoSeriousViolations(page, `Usage at ${size.name} width`);
      await page.getByRole('button', { name: 'Show as a table' }).click();
      await expectNoSeriousViolations(page, `Usage with the day table shown, ${size.name}`);

      await page.getByRole('button', { name: /^Compare/ }).click();
      const board = page.getByRole('region', { name: 'Compare', exact: true });
      for (const label of ['Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
        await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
      await board.getByLabel('Prompt 1', { exact: true }).fill('A quiet harbour at dawn');
      await board.getByRole('button', { name: /^Run all/ }).click();
      await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
      await board.getByRole('button', { name: 'Blind', exact: true }).click();
      await board
        .getByRole('group', { name: 'Candidate A, prompt 1', exact: true })
        .getByRole('button', { name: 'Best', exact: true })
        .click();
      await expect(board.getByTestId('row-vote')).toHaveText('Your vote: Candidate A');
      await expectNoSeriousViolations(page, `a blind board with a vote, ${size.name}`);

      await board.getByRole('button', { name: 'Leaderboard', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Leaderboard' });
      await expect(dialog.getByRole('table', { name: /^Leaderboard of / }).getByRole('row')).toHaveCount(3);
      await expectNoSeriousViolations(page, `the Leaderboard, ${size.name}`);
      await page.keyboard.press('Escape');
      await board.getByRole('button', { name: 'Reveal', exact: true }).click();
      await expect(board.getByText('Voted best (blind)')).toBeVisible();
      await expectNoSeriousViolations(page, `a revealed board, ${size.name}`);
    });
  }
});

test.describe('the gallery', () => {
  // The gallery with a selection, the Viewer with its shortcuts, Compare two on the slider and side by
  // side, and a failed output's placeholder; at 1280 px and at phone width, light and dark.
  for (const width of [1280, 390]) {
    test(`gallery, viewer and compare two at ${width} px`, async ({ studio, sandbox, page }) => {
      // Eight axe runs (four screens, two schemes) and three sandbox tasks.
      test.slow();
      await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
      const tasks = await seedImages(sandbox, 2);
      const cutout = await runCutout(sandbox, tasks[1]!.outputs[0]!.url, Date.now());
      const broken = {
        ...tasks[1]!,
        taskId: 'task_a11y_broken',
        prompt: 'a broken output',
        request: { ...tasks[1]!.request, params: { prompt: 'a broken output' } },
        // A CDN path the sandbox does not have: a 404 it lets any origin read (other paths it does not).
        outputs: [{ url: `${SANDBOX_ORIGIN}/cdn/outputs/no-such-file.png` }],
      };
      await studio.start('personal');
      await importHistory(page, historyFile([...tasks, cutout, broken]));
      // On a phone the Gallery is the bar's "Results" (docs/phone.md).
      await page.getByRole('button', { name: width > 400 ? 'Gallery' : 'Results', exact: true }).click();
      const gallery = page.getByRole('main', { name: 'Gallery' });
      await expect(gallery.getByTestId('media-failed')).toContainText('404');
      await gallery.getByRole('button', { name: /^Filters/ }).click();
      await gallery.getByTestId('gallery-tile').first().getByRole('checkbox', { name: 'Select' }).check();
      await expect(gallery.getByRole('toolbar', { name: 'Selection' })).toBeVisible();
      // The filters and the selection's actions fill a phone's screen: the grid keeps its tiles below
      // them (the page scrolls), it does not shrink to nothing.
      await expect(gallery.getByTestId('gallery-tile')).toHaveCount(5);
      await gallery.getByTestId('gallery-tile').last().scrollIntoViewIfNeeded();
      await expect(gallery.getByTestId('gallery-tile').last()).toBeInViewport();
      await expectNoSeriousViolations(page, `gallery at ${width} px`);

      await gallery.getByRole('button', { name: /^Remove background/ }).click();
      const viewer = page.getByRole('dialog', { name: 'Viewer' });
      await expect(viewer.getByRole('button', { name: 'Star', exact: true })).toBeVisible();
      await page.keyboard.press('?');
      await expect(viewer.getByRole('region', { name: 'Keyboard shortcuts' })).toBeVisible();
      await expectNoSeriousViolations(page, `viewer at ${width} px`);

      await viewer.getByRole('button', { name: 'Compare with source' }).click();
      const compare = page.getByRole('dialog', { name: 'Compare two' });
      await expect(compare.getByRole('slider', { name: 'Before and after' })).toBeVisible();
      await expectNoSeriousViolations(page, `compare two, slider, at ${width} px`);
      await compare.getByRole('radio', { name: 'Side by side' }).click();
      await expectNoSeriousViolations(page, `compare two, side by side, at ${width} px`);
    });
  }
});

test.describe('search, tags, saved searches and a family tree', () => {
  // The search box with its suggestions open and its chips, a tag added to a selection, the saved
  // searches listed, and the Viewer with its tags and its family tree open; at 1280 px and at phone
  // width, light and dark.
  for (const width of [1280, 390]) {
    test(`search, tags and the family tree at ${width} px`, async ({ studio, sandbox, page }) => {
      test.slow();
      await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
      const [first, second, third] = await seedImages(sandbox, 3);
      // Each made from the one before it.
      const family = [
        first!,
        { ...second!, meta: { ...second!.meta, parents: [{ taskId: first!.taskId, outputIndex: 0 }] } },
        { ...third!, meta: { ...third!.meta, parents: [{ taskId: second!.taskId, outputIndex: 0 }] } },
      ];
      await studio.start('personal');
      await importHistory(page, historyFile(family));
      await page.getByRole('button', { name: width > 400 ? 'Gallery' : 'Results', exact: true }).click();
      const gallery = page.getByRole('main', { name: 'Gallery' });
      const tiles = gallery.getByTestId('gallery-tile');
      // The first has two outputs.
      await expect(tiles).toHaveCount(4);

      const box = gallery.getByRole('combobox', { name: 'Search prompts' });
      await box.click();
      await page.keyboard.type('mo');
      await expect(gallery.getByRole('listbox', { name: 'Suggestions' })).toBeVisible();
      await expectNoSeriousViolations(page, `search suggestions at ${width} px`);
      await page.keyboard.press('Escape');
      await box.fill('');
      await expect(tiles).toHaveCount(4);

      await tiles.first().getByRole('checkbox', { name: 'Select' }).check();
      const toolbar = gallery.getByRole('toolbar', { name: 'Selection' });
      await toolbar.getByRole('button', { name: 'Add tag' }).click();
      await toolbar.getByRole('textbox', { name: 'New tag' }).fill('keeper');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await box.fill('tag:keeper gallery');
      await expect(tiles).toHaveCount(1);
      await gallery.getByRole('button', { name: 'Save search' }).click();
      await gallery.getByRole('textbox', { name: 'Name of the search' }).fill('Keepers');
      await page.keyboard.press('Enter');
      await expect(gallery.getByRole('list', { name: 'Saved searches' })).toBeVisible();
      await expect(
        gallery.getByRole('list', { name: 'Search terms' }).getByTestId('search-chip'),
      ).toHaveCount(2);
      await expectNoSeriousViolations(page, `search chips, a tag and saved searches at ${width} px`);

      await box.fill('');
      await gallery.getByRole('button', { name: /^gallery tile 2/ }).click();
      const viewer = page.getByRole('dialog', { name: 'Viewer' });
      await viewer.getByRole('button', { name: 'Family tree' }).click();
      await expect(
        viewer.getByRole('region', { name: 'Family tree' }).locator('[aria-current="true"]'),
      ).toContainText('gallery tile 2');
      await expectNoSeriousViolations(page, `viewer with its family tree at ${width} px`);
    });
  }
});

test.describe('a batch stack in the gallery', () => {
  // "Group batches": a batch of three is one stack, closed and then opened in place, at 1280 px and at
  // phone width, light and dark.
  for (const width of [1280, 390]) {
    test(`a batch stack closed and opened at ${width} px`, async ({ studio, sandbox, page }) => {
      await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
      const tasks = await seedImages(sandbox, 4);
      // The last three were one click's Variations: they share a batch id.
      const batch = tasks.map((t, i) =>
        i === 0 ? t : { ...t, meta: { ...t.meta, batchId: 'batch_a11y', batchSize: 3 } },
      );
      await studio.start('personal');
      await importHistory(page, historyFile(batch));
      await page.getByRole('button', { name: width > 400 ? 'Gallery' : 'Results', exact: true }).click();
      const gallery = page.getByRole('main', { name: 'Gallery' });
      await gallery.getByRole('checkbox', { name: 'Group batches' }).check();
      const stack = gallery.getByRole('button', { name: /^Batch of 3: / });
      await expect(stack).toHaveAttribute('aria-expanded', 'false');
      await expectNoSeriousViolations(page, `a closed batch stack at ${width} px`);
      await stack.click();
      await expect(stack).toHaveAttribute('aria-expanded', 'true');
      await expect(gallery.locator('[data-in-stack]')).toHaveCount(3);
      await expectNoSeriousViolations(page, `an open batch stack at ${width} px`);
    });
  }
});

test('the History while a file is imported: its progress bar, at 1280 px and at phone width', async ({
  studio,
  page,
}) => {
  await studio.start('personal');
  // The file is held while it is read, so the bar stays for axe: the page's own File.text waits for a
  // word from the test.
  await page.evaluate(() => {
    const text = File.prototype.text;
    const w = window as unknown as { __releaseImport?: () => void };
    File.prototype.text = function (this: File) {
      return new Promise<void>((resolve) => (w.__releaseImport = resolve)).then(() => text.call(this));
    };
  });
  await page.getByLabel('Import history file').setInputFiles({
    name: 'history.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(historyFile([]))),
  });
  const bar = page.getByRole('progressbar', { name: 'Importing history' });
  await expect(bar).toHaveAttribute('aria-valuetext', 'Reading the file');
  await expectNoSeriousViolations(page, 'history import at 1280 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(bar).toBeVisible();
  await expectNoSeriousViolations(page, 'history import at 390 px');
  await page.evaluate(() => (window as unknown as { __releaseImport: () => void }).__releaseImport());
  await expect(page.getByText('Imported 0 tasks (0 skipped)')).toBeVisible();
  await expect(bar).toHaveCount(0);
});

test.describe('presets, batches and the prompt library', () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: a batch in the history, Save preset, Presets, Prompt library, Variations and a refused batch`, async ({
      studio,
      page,
      history,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await studio.start('capped');
      const form = await studio.openModel('Lumen Canvas');
      const prompt = uniquePrompt('a lighthouse at dusk');
      await studio.prompt.fill(prompt);
      await page.getByRole('spinbutton', { name: 'Runs', exact: true }).fill('2');
      await expect(studio.quote.getByTestId('quote-batch-total')).toBeVisible();
      await page.getByRole('button', { name: 'Generate', exact: true }).click();
      await expect(history.card(prompt)).toHaveCount(2, { timeout: 15_000 });
      for (const card of await history.card(prompt).all()) await history.expectStatus(card, 'succeeded');

      await page.getByRole('button', { name: 'Save preset', exact: true }).click();
      const save = page.getByRole('dialog', { name: 'Save preset' });
      await save.getByRole('textbox', { name: 'Preset name' }).fill('Dusk');
      await expectNoSeriousViolations(page, `Save preset dialog at ${width} px`);
      await save.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(save).toBeHidden();

      await page.getByRole('button', { name: 'Presets', exact: true }).click();
      const presets = page.getByRole('dialog', { name: 'Presets' });
      await presets.getByRole('button', { name: 'Rename' }).click();
      await expect(presets.getByRole('textbox', { name: 'New name' })).toBeVisible();
      await expectNoSeriousViolations(page, `Presets dialog at ${width} px`);
      await presets.getByRole('button', { name: 'Apply Dusk' }).click();
      await expect(
        page.getByRole('region', { name: /^Notices/ }).getByText('Preset "Dusk" applied.'),
      ).toBeVisible();

      await form.getByRole('button', { name: 'Prompt library' }).click();
      const library = page.getByRole('dialog', { name: 'Prompt library' });
      await expect(library.getByRole('listitem')).toHaveCount(1);
      await expectNoSeriousViolations(page, `Prompt library dialog at ${width} px`);
      await page.keyboard.press('Escape');
      await expect(library).toBeHidden();

      await studio.prompt.fill('a lighthouse {at dusk|at dawn|at noon}');
      await page.getByRole('checkbox', { name: 'Variations' }).check();
      await page.getByRole('spinbutton', { name: 'Runs', exact: true }).fill('10');
      await expect(studio.quote.getByText('Over the daily cap')).toBeVisible();
      await page.getByRole('button', { name: 'Generate', exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Batch not sent' })).toBeVisible();
      await expectNoSeriousViolations(page, `variations, a batch total and a refused batch at ${width} px`);
    });
  }
});
