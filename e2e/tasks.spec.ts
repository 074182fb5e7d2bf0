import { readFile } from 'node:fs/promises';
import { expect, test, type Studio } from './fixtures';
import { readRecipe } from '../src/model/recipes/file-recipe';
import {
  EXTENSION_OF,
  disconnect,
  extensionOfUrl,
  expectAudioLoaded,
  expectImageLoaded,
  expectVideoPlayable,
  generate,
  uniquePrompt,
  type History,
} from './task-helpers';

// product-notes §3 "Submit" and "History and gallery": a click on "Generate" becomes a card in the region
// "History" that follows the task to its end and shows what it made.

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
});

/** Connects the (empty) team key instead, and imports the history file by its Import button. */
async function importIntoTeamKey(studio: Studio, history: History, file: string): Promise<void> {
  await disconnect(studio);
  await studio.connect('team');
  await expect(history.cards).toHaveCount(0);
  const chooser = studio.page.waitForEvent('filechooser');
  await history.region.getByRole('button', { name: 'Import', exact: true }).click();
  await (await chooser).setFiles(file);
}

test('an image, a video and an audio task each succeed and show their output', async ({
  studio,
  sandbox,
  history,
}) => {
  const imagePrompt = uniquePrompt('a lighthouse at dusk');
  await studio.openModel('Lumen Canvas', 'image/default');
  await generate(studio, imagePrompt);

  const videoPrompt = uniquePrompt('waves rolling in');
  await studio.openModel('Dream', 'video/text-ref');
  await generate(studio, videoPrompt);

  const audioPrompt = uniquePrompt('a calm piano loop');
  await studio.openModel('Composer', 'audio/music');
  await generate(studio, audioPrompt);

  const image = history.card(imagePrompt);
  const video = history.card(videoPrompt);
  const audio = history.card(audioPrompt);
  await history.expectStatus(image, 'succeeded');
  await history.expectStatus(video, 'succeeded');
  await history.expectStatus(audio, 'succeeded');

  // Image: the card's picture is the task's output (or its thumbnail) and it decoded.
  const img = image.getByRole('img', { name: imagePrompt });
  await expectImageLoaded(img);
  const imageTask = await sandbox.task(await history.taskIdOf(image));
  const src = await img.getAttribute('src');
  expect([imageTask.outputs[0]?.url, imageTask.outputs[0]?.thumbnailUrl]).toContain(src);

  // Video: a player on the card that Chromium can decode.
  const player = video.getByLabel(`Video: ${videoPrompt}`, { exact: true });
  const videoTask = await sandbox.task(await history.taskIdOf(video));
  await expect(player).toHaveAttribute('src', videoTask.outputs[0]!.url);
  await expectVideoPlayable(player);
  // No native controls squeezed into the thumbnail: a Play / Pause button plays it in place.
  await expect(player).not.toHaveAttribute('controls');
  await video.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => !el.paused)).toBe(true);
  await video.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
  await expect(video.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // Audio: a player on the card whose media loads.
  const sound = audio.getByLabel(`Audio: ${audioPrompt}`, { exact: true });
  const audioTask = await sandbox.task(await history.taskIdOf(audio));
  await expect(sound).toHaveAttribute('src', audioTask.outputs[0]!.url);
  // Its length is known before it is played (the player does not say "0:00 / 0:00").
  await expect.poll(() => sound.evaluate((el: HTMLAudioElement) => el.duration || 0)).toBeGreaterThan(0);
  await expectAudioLoaded(sound);

  // Newest first.
  expect((await history.summary()).map((c) => c.prompt)).toEqual([audioPrompt, videoPrompt, imagePrompt]);
});

test('a [fail] prompt ends failed with its error; a [cancel] prompt ends cancelled', async ({
  studio,
  sandbox,
  history,
}) => {
  await studio.openModel('Lumen Canvas', 'image/default');

  const failPrompt = uniquePrompt('this one breaks [fail]');
  const cancelPrompt = uniquePrompt('this one stops [cancel]');
  await generate(studio, failPrompt);
  await generate(studio, cancelPrompt);

  const failed = history.card(failPrompt);
  const cancelled = history.card(cancelPrompt);
  await history.expectStatus(failed, 'failed');
  await history.expectStatus(cancelled, 'cancelled');

  // The card shows the service's error code and message, word for word.
  const task = await sandbox.task(await history.taskIdOf(failed));
  expect(task.status).toBe('failed');
  expect(task.error?.code).toBe('generation_failed');
  await expect(failed.getByText(task.error!.code, { exact: true })).toBeVisible();
  await expect(failed.getByText(task.error!.message, { exact: true })).toBeVisible();
  // Refunded, and the card says so rather than the quoted price.
  await expect(failed.getByText('0 credits', { exact: true })).toBeVisible();

  // So does the detail view.
  const dialog = await history.openDetail(failed);
  await expect(dialog.getByText(task.error!.code, { exact: true })).toBeVisible();
  await expect(dialog.getByText(task.error!.message, { exact: true })).toBeVisible();
  await history.closeDetail(dialog);

  await expect(cancelled.getByText(/Cancelled before it finished/)).toBeVisible();
  await expect(cancelled.getByRole('img')).toHaveCount(0);
});

test('tasks submitted just before a reload still finish in the History after it', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  const prompts = [1, 2, 3].map((n) => uniquePrompt(`reload ${n}`));
  await studio.prompt.fill(prompts[0]!);
  const { credits } = await sandbox.quote(await studio.requestBody());
  const before = await sandbox.balance();

  await generate(studio, prompts[0]!);
  await generate(studio, prompts[1]!);
  // The page reloads as soon as the third has gone out: maybe before its answer, surely before any poll
  // (the first comes 2 s after a task is made), so the tasks are still running in the studio's eyes.
  await studio.prompt.fill(prompts[2]!);
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/tasks'));
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await sent;
  await page.reload();

  // The key is still in the session: the studio reconnects and picks the tasks up again.
  await expect(studio.accountButton).toBeVisible();
  for (const prompt of prompts) await history.expectStatus(history.card(prompt), 'succeeded');
  await expect(history.cards).toHaveCount(3);
  await expect(history.region.getByText('3 tasks', { exact: true })).toBeVisible();
  await expectImageLoaded(history.card(prompts[2]!).getByRole('img', { name: prompts[2]! }));
  // Three tasks, three charges: nothing lost, nothing paid twice.
  expect(await sandbox.balance()).toBe(before - 3 * credits);
});

test('the history is kept per key', async ({ studio, history }) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  const mine = uniquePrompt('made with the personal key');
  await generate(studio, mine);
  await history.expectStatus(history.card(mine), 'succeeded');

  await disconnect(studio);
  await studio.connect('team');
  await expect(history.region.getByText('No tasks yet', { exact: true })).toBeVisible();
  await expect(history.cards).toHaveCount(0);
  await studio.openModel('Lumen Canvas', 'image/default');
  const theirs = uniquePrompt('made with the team key');
  await generate(studio, theirs);
  await history.expectStatus(history.card(theirs), 'succeeded');
  await expect(history.cards).toHaveCount(1);

  await disconnect(studio);
  await studio.connect('personal');
  await history.expectStatus(history.card(mine), 'succeeded');
  await expect(history.cards).toHaveCount(1);
  await expect(history.card(theirs)).toHaveCount(0);
});

/** Lumen Canvas opened, with the controls the Remix and Open recipe tests change and read back. */
async function lumenCanvasForm(studio: Studio) {
  const form = await studio.openModel('Lumen Canvas', 'image/default');
  const radios = (group: string) => form.getByRole('radiogroup', { name: group, exact: true });
  const choose = (group: string, option: string) =>
    radios(group).getByRole('radio', { name: option, exact: true }).click();
  const version = form.getByRole('combobox', { name: 'Version', exact: true });
  const avoid = form.getByRole('textbox', { name: 'Things to avoid', exact: true });
  return { radios, choose, version, avoid };
}

test('Remix reopens the form with every param the task ran with', async ({ studio, history }) => {
  const { radios, choose, version, avoid } = await lumenCanvasForm(studio);

  const prompt = uniquePrompt('a fox in the snow, remixed');
  await version.selectOption('lumen-canvas-v3');
  await choose('Aspect ratio', '16:9');
  await choose('Resolution', '2K');
  await choose('Style', 'Watercolor');
  await choose('Guidance', 'high');
  await choose('Enhance', 'on');
  await avoid.fill('people, text');
  await studio.prompt.fill(prompt);
  const original = await studio.requestBody();
  expect(original).toMatchObject({
    interfaceId: 'lumen-canvas',
    versionId: 'lumen-canvas-v3',
    params: {
      prompt,
      aspect_ratio: '16:9',
      resolution: '2K',
      style: 'watercolor',
      'advanced.guidance': 'high',
      enhance: 'on',
      negative_prompt: 'people, text',
    },
  });
  await generate(studio, prompt);
  await history.expectStatus(history.card(prompt), 'succeeded');

  // Everything changed afterwards.
  await version.selectOption('lumen-canvas-v2');
  await choose('Aspect ratio', '1:1');
  await choose('Resolution', '512');
  await choose('Style', 'Anime');
  await choose('Guidance', 'low');
  await choose('Enhance', 'off');
  await avoid.fill('');
  await studio.prompt.fill('something else entirely');
  expect(await studio.requestBody()).not.toEqual(original);

  const dialog = await history.openDetail(history.card(prompt));
  await dialog.getByRole('button', { name: 'Remix', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(studio.prompt).toHaveValue(prompt);
  await expect(version).toHaveValue('lumen-canvas-v3');
  await expect(radios('Aspect ratio').getByRole('radio', { name: '16:9', exact: true })).toBeChecked();
  await expect(radios('Resolution').getByRole('radio', { name: '2K', exact: true })).toBeChecked();
  await expect(radios('Style').getByRole('radio', { name: 'Watercolor', exact: true })).toBeChecked();
  await expect(radios('Guidance').getByRole('radio', { name: 'high', exact: true })).toBeChecked();
  await expect(radios('Enhance').getByRole('radio', { name: 'on', exact: true })).toBeChecked();
  await expect(avoid).toHaveValue('people, text');
  // The exact body, dotted key included, is the one the task was made with.
  expect(await studio.requestBody()).toEqual(original);
});

test('a downloaded file, opened with "Open recipe" (and dropped on the form), reopens the form it was made with', async ({
  studio,
  history,
  page,
}) => {
  const { radios, choose, version, avoid } = await lumenCanvasForm(studio);

  const prompt = uniquePrompt('a lighthouse at dusk, from its recipe');
  await version.selectOption('lumen-canvas-v3');
  await choose('Aspect ratio', '16:9');
  await choose('Style', 'Watercolor');
  await choose('Guidance', 'high');
  await avoid.fill('people, text');
  await studio.prompt.fill(prompt);
  const original = await studio.requestBody();
  await generate(studio, prompt);
  await history.expectStatus(history.card(prompt), 'succeeded');

  const detail = await history.openDetail(history.card(prompt));
  const download = page.waitForEvent('download');
  await detail.getByRole('button', { name: 'Download', exact: true }).click();
  const path = await (await download).path();
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // Another model, everything else changed too.
  await studio.openModel('Pop Diffusion', 'image/default');
  await studio.prompt.fill('something else entirely');
  expect((await studio.requestBody()).interfaceId).toBe('pixelmoss-pop');

  await page.getByTestId('open-recipe-input').setInputFiles(path);
  const dialog = page.getByRole('dialog', { name: 'Recipe' });
  await expect(dialog.getByTestId('recipe-fields')).toContainText(prompt);
  await expect(dialog.getByTestId('recipe-fields')).toContainText('lumen-canvas, lumen-canvas-v3');
  await dialog.getByRole('button', { name: 'Use this recipe', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(studio.prompt).toHaveValue(prompt);
  await expect(version).toHaveValue('lumen-canvas-v3');
  await expect(radios('Aspect ratio').getByRole('radio', { name: '16:9', exact: true })).toBeChecked();
  await expect(radios('Style').getByRole('radio', { name: 'Watercolor', exact: true })).toBeChecked();
  await expect(avoid).toHaveValue('people, text');
  expect(await studio.requestBody()).toEqual(original);

  // The same file dropped on the form (not on a file field) opens its recipe too.
  await studio.prompt.fill('something else entirely');
  const bytes = (await readFile(path)).toString('base64');
  const drop = await page.evaluateHandle((b64) => {
    const data = new DataTransfer();
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    data.items.add(new File([raw], 'made-here.png', { type: 'image/png' }));
    return data;
  }, bytes);
  const formRegion = page.getByRole('region', { name: 'Form' });
  await formRegion.dispatchEvent('dragenter', { dataTransfer: drop });
  await formRegion.dispatchEvent('drop', { dataTransfer: drop });
  await expect(page.getByRole('dialog', { name: 'Recipe' })).toContainText('made-here.png');
  await page.getByRole('dialog', { name: 'Recipe' }).getByRole('button', { name: 'Use this recipe' }).click();
  await expect(studio.prompt).toHaveValue(prompt);
});

test('"Use as input" puts an image output into the first frame of a video model', async ({
  studio,
  sandbox,
  history,
}) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  const imagePrompt = uniquePrompt('a red kite against the sky');
  await generate(studio, imagePrompt);
  const imageCard = history.card(imagePrompt);
  await history.expectStatus(imageCard, 'succeeded');
  const image = await sandbox.task(await history.taskIdOf(imageCard));
  const url = image.outputs[0]!.url;

  const form = await studio.openModel('Keyframe', 'video/first-last-frame');
  const firstFrame = form
    .getByRole('group', { name: 'First frame', exact: true })
    .getByLabel('First frame', { exact: true });
  await expect(firstFrame).toHaveValue('');

  const dialog = await history.openDetail(imageCard);
  await dialog.getByRole('button', { name: 'Use as input', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(firstFrame).toHaveValue(url);
  const videoPrompt = uniquePrompt('the kite drifts away');
  await studio.prompt.fill(videoPrompt);
  const body = await studio.requestBody();
  expect(body).toMatchObject({ interfaceId: 'lumen-keyframe', params: { first_frame: url } });
  expect(body.params).not.toHaveProperty('last_frame');

  // The output is service-hosted, so it feeds the next task directly.
  await generate(studio, videoPrompt);
  await history.expectStatus(history.card(videoPrompt), 'succeeded');
});

test('Download names the file from the Content-Type, not the URL', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  // Usually one batch of images; up to eight when luck is poor.
  test.setTimeout(120_000);
  await studio.openModel('Lumen Canvas', 'image/default');

  // The sandbox gives one image URL in three an extension that disagrees with its Content-Type (api-notes §2):
  // make images until one does, so the name cannot have come from the URL.
  let lying: { prompt: string; type: string; urlExt: string | undefined } | undefined;
  for (let batch = 0; batch < 8 && !lying; batch++) {
    const prompts = [1, 2, 3].map((n) => uniquePrompt(`download ${batch}.${n}`));
    for (const prompt of prompts) await generate(studio, prompt);
    for (const prompt of prompts) {
      const card = history.card(prompt);
      await history.expectStatus(card, 'succeeded');
      const task = await sandbox.task(await history.taskIdOf(card));
      const url = task.outputs[0]!.url;
      const type = await sandbox.contentType(url);
      expect(Object.keys(EXTENSION_OF), `a media Content-Type for ${url}`).toContain(type);
      if (extensionOfUrl(url) !== EXTENSION_OF[type]) {
        lying = { prompt, type, urlExt: extensionOfUrl(url) };
        break;
      }
    }
  }
  expect(lying, 'an image whose URL extension disagrees with its Content-Type').toBeDefined();
  const expected = EXTENSION_OF[lying!.type]!;

  const taskId = await history.taskIdOf(history.card(lying!.prompt));
  const dialog = await history.openDetail(history.card(lying!.prompt));
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
  const file = await download;
  const name = file.suggestedFilename();
  expect(name).toMatch(new RegExp(`^lumen-canvas-[A-Za-z0-9]+\\.${expected}$`));
  await expect(dialog.getByText(`Saved as ${name}`, { exact: true })).toBeVisible();

  // And the bytes are that format.
  const bytes = await readFile(await file.path());
  const magic = bytes.subarray(0, 4).toString('hex');
  expect(magic).toMatch(expected === 'png' ? /^89504e47/ : /^ffd8ff/);
  // With the task's recipe written in (PNG text chunks, JPEG XMP).
  expect(readRecipe(new Uint8Array(bytes))).toMatchObject({
    kind: 'recipe',
    recipe: { taskId, prompt: lying!.prompt },
  });
});

test('export then import gives back the same history', async ({ studio, page, history }, testInfo) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  const ok = uniquePrompt('kept for later');
  const bad = uniquePrompt('kept though it broke [fail]');
  await generate(studio, ok);
  await generate(studio, bad);
  await history.expectStatus(history.card(ok), 'succeeded');
  await history.expectStatus(history.card(bad), 'failed');
  const exported = await history.summary();
  const ids = [await history.taskIdOf(history.card(bad)), await history.taskIdOf(history.card(ok))];
  expect(exported).toEqual([
    { prompt: bad, status: 'failed' },
    { prompt: ok, status: 'succeeded' },
  ]);

  const download = page.waitForEvent('download');
  await history.region.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^media-studio-history-\d{4}-\d{2}-\d{2}\.json$/);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  // The file holds tasks, never the key.
  expect(await readFile(saved, 'utf8')).not.toContain(studio.keyOf('personal'));

  // Another key starts empty, then holds the same history once the file is imported.
  await importIntoTeamKey(studio, history, saved);
  await expect(
    page.getByRole('region', { name: /^Notices/ }).getByText('Imported 2 tasks (0 skipped)', { exact: true }),
  ).toBeVisible();

  await expect(history.cards).toHaveCount(2);
  expect(await history.summary()).toEqual(exported);
  expect([await history.taskIdOf(history.card(bad)), await history.taskIdOf(history.card(ok))]).toEqual(ids);
  await expectImageLoaded(history.card(ok).getByRole('img', { name: ok }));
  await expect(history.card(bad).getByText('generation_failed', { exact: true })).toBeVisible();
});

test('lineage: an image, its cutout and a video of the cutout link both ways in the Viewer, after a reload and after export and import', async ({
  studio,
  history,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await studio.openModel('Lumen Canvas', 'image/default');
  const imagePrompt = uniquePrompt('a red kite, the first of its family');
  await generate(studio, imagePrompt);
  await history.expectStatus(history.card(imagePrompt), 'succeeded');

  // Each made from the one before, by "Use as input".
  const useAsInput = async (prompt: string) => {
    const detail = await history.openDetail(history.card(prompt));
    await detail.getByRole('button', { name: 'Use as input', exact: true }).click();
    await expect(detail).toBeHidden();
  };
  await studio.openModel('Cutout', 'image/edit-image');
  await useAsInput(imagePrompt);
  const cutoutPrompt = uniquePrompt('the kite, cut out');
  await generate(studio, cutoutPrompt);
  await history.expectStatus(history.card(cutoutPrompt), 'succeeded');
  await studio.openModel('Keyframe', 'video/first-last-frame');
  await useAsInput(cutoutPrompt);
  const videoPrompt = uniquePrompt('the cut-out kite drifts away');
  await generate(studio, videoPrompt);
  await history.expectStatus(history.card(videoPrompt), 'succeeded');

  const gallery = page.getByRole('main', { name: 'Gallery' });
  const viewer = page.getByRole('dialog', { name: 'Viewer' });
  /** The cutout in the Viewer: made from the image, used in the video; each link leads there and back. */
  const expectFamily = async () => {
    await page.getByRole('button', { name: 'Gallery', exact: true }).click();
    await gallery.getByRole('button', { name: cutoutPrompt }).first().click();
    const madeFrom = viewer.getByRole('region', { name: 'Made from' });
    const usedIn = viewer.getByRole('region', { name: 'Used in' });
    await expect(madeFrom).toContainText(imagePrompt);
    await expect(usedIn).toContainText(videoPrompt);
    // To the parent: it was used in the cutout.
    await madeFrom.getByRole('button').first().click();
    await expect(viewer.getByRole('region', { name: 'Used in' })).toContainText(cutoutPrompt);
    await expect(viewer.getByRole('region', { name: 'Made from' })).toHaveCount(0);
    // On to the cutout again, then to the video: made from the cutout.
    await viewer.getByRole('region', { name: 'Used in' }).getByRole('button').first().click();
    await viewer.getByRole('region', { name: 'Used in' }).getByRole('button').first().click();
    await expect(viewer.getByRole('region', { name: 'Made from' })).toContainText(cutoutPrompt);
    // The whole family as a tree: the image at its root, the cutout under it, the video (shown) under that.
    await viewer.getByRole('button', { name: 'Family tree' }).click();
    const tree = viewer.getByRole('region', { name: 'Family tree' });
    const root = tree.locator(':scope > ul > li');
    await expect(root).toHaveCount(1);
    await expect(root.locator(':scope > button')).toContainText(imagePrompt);
    const cutout = root.locator(':scope > div > ul > li');
    await expect(cutout.locator(':scope > button')).toContainText(cutoutPrompt);
    await expect(cutout.locator(':scope > div > ul > li[aria-current="true"]')).toContainText(videoPrompt);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  };
  await expectFamily();
  await page.reload();
  await history.expectStatus(history.card(videoPrompt), 'succeeded');
  await expectFamily();

  // The family travels in the history file: another key, the file imported, the same links.
  const download = page.waitForEvent('download');
  await history.region.getByRole('button', { name: 'Export', exact: true }).click();
  const saved = testInfo.outputPath('lineage-history.json');
  await (await download).saveAs(saved);
  await importIntoTeamKey(studio, history, saved);
  await history.expectStatus(history.card(videoPrompt), 'succeeded');
  await expectFamily();
});
