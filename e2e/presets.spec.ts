import type { Locator, Page } from '@playwright/test';
import { creditsText, expect, test, type Sandbox, type Studio } from './fixtures';
import { TASK_TIMEOUT, generate, uniquePrompt } from './task-helpers';

// Presets, batches and the prompt library (product-notes §3 "Presets, batches, prompt library"), driven as a
// person would, against the real sandbox: what is saved comes back after a reload, a batch of N is N
// tasks charged N times the quote, a batch over the cap sends nothing, and ArrowUp recalls a prompt.

const taskPosts = async (sandbox: Sandbox) =>
  (await sandbox.requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/v1/tasks')).length;

function lumen(studio: Studio) {
  const form = studio.form('Lumen Canvas');
  const radios = (group: string) => form.getByRole('radiogroup', { name: group, exact: true });
  return {
    form,
    radios,
    choose: (group: string, option: string) =>
      radios(group).getByRole('radio', { name: option, exact: true }).click(),
    version: form.getByRole('combobox', { name: 'Version', exact: true }),
  };
}

const runs = (page: Page) => page.getByRole('spinbutton', { name: 'Runs', exact: true });
const generateButton = (page: Page) => page.getByRole('button', { name: 'Generate', exact: true });

async function openPresets(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Presets', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Presets' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function savePreset(page: Page, name: string) {
  await page.getByRole('button', { name: 'Save preset', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Save preset' });
  await dialog.getByRole('textbox', { name: 'Preset name' }).fill(name);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
}

test.describe('presets', () => {
  test('a preset saved from the form is applied after a reload, version and every setting', async ({
    studio,
    page,
  }) => {
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    const { version, choose, radios } = lumen(studio);
    await version.selectOption('lumen-canvas-v3');
    await choose('Aspect ratio', '16:9');
    await choose('Style', 'Watercolor');
    await choose('Guidance', 'high');
    await studio.form('Lumen Canvas').getByRole('textbox', { name: 'Things to avoid' }).fill('text, people');
    await studio.prompt.fill('a harbour at dawn');
    const saved = await studio.requestBody();
    await savePreset(page, 'Wide watercolour');

    // Everything changed since; the draft keeps the changes across the reload.
    await version.selectOption('lumen-canvas-v2');
    await choose('Aspect ratio', '1:1');
    await choose('Style', 'Anime');
    await studio.prompt.fill('something else');
    await page.reload();
    await expect(studio.accountButton).toBeVisible();
    await expect(studio.prompt).toHaveValue('something else');
    await expect(version).toHaveValue('lumen-canvas-v2');

    const dialog = await openPresets(page);
    await expect(dialog.getByRole('radio', { name: 'This item' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Apply Wide watercolour' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('region', { name: /^Notices/ }).getByText('Preset "Wide watercolour" applied.'),
    ).toBeVisible();
    await expect(version).toHaveValue('lumen-canvas-v3');
    await expect(radios('Style').getByRole('radio', { name: 'Watercolor', exact: true })).toBeChecked();
    expect(await studio.requestBody()).toEqual(saved);
  });

  test('presets across items: rename, apply from another item, delete; an imported one drops what no longer fits', async ({
    studio,
    page,
  }) => {
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    await studio.prompt.fill('a lighthouse');
    await savePreset(page, 'Lighthouse');

    await studio.openTool('Style transfer');
    let dialog = await openPresets(page);
    await expect(dialog.getByText('No presets for Style transfer yet', { exact: false })).toBeVisible();
    await dialog.getByRole('radio', { name: 'All items' }).click();
    const row = dialog.getByRole('listitem', { name: 'Lighthouse' });
    await row.getByRole('button', { name: 'Rename' }).click();
    await row.getByRole('textbox', { name: 'New name' }).fill('Lighthouse, renamed');
    await row.getByRole('button', { name: 'Save name' }).click();
    await dialog.getByRole('button', { name: 'Apply Lighthouse, renamed' }).click();
    await expect(studio.form('Lumen Canvas')).toBeVisible();
    await expect(studio.prompt).toHaveValue('a lighthouse');

    // A file made against older definitions: a version, an option and a setting that are gone.
    dialog = await openPresets(page);
    const old = {
      format: 'media-studio-presets',
      version: 1,
      presets: [
        {
          id: 'old-one',
          name: 'Old one',
          itemName: 'Lumen Canvas',
          category: 'image/default',
          request: {
            interfaceId: 'lumen-canvas',
            versionId: 'lumen-canvas-v1',
            params: { prompt: 'an old prompt', aspect_ratio: '5:4', style: 'anime', retired_knob: 3 },
          },
          createdAt: 1,
          updatedAt: 1,
        },
      ],
    };
    await dialog.getByLabel('Import presets file').setInputFiles({
      name: 'presets.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(old)),
    });
    await expect(dialog.getByText('Imported 1 preset (0 skipped).')).toBeVisible();
    await dialog.getByRole('button', { name: 'Apply Old one' }).click();
    const notice = page
      .getByRole('region', { name: /^Notices/ })
      .getByRole('listitem')
      .filter({ hasText: 'Preset "Old one" applied, without' });
    await expect(notice).toBeVisible();
    const dropped = notice.getByRole('list', { name: 'Dropped from the preset' });
    await expect(dropped).toContainText('version: version "lumen-canvas-v1" is no longer offered');
    await expect(dropped).toContainText('aspect_ratio: "5:4" is no longer an option');
    await expect(dropped).toContainText('retired_knob: no longer a setting of this item');
    await expect(studio.prompt).toHaveValue('an old prompt');
    const body = await studio.requestBody();
    expect(body).toMatchObject({ params: { prompt: 'an old prompt', style: 'anime', aspect_ratio: '1:1' } });
    expect(body.params).not.toHaveProperty('retired_knob');

    // Exported as JSON (without the key), then deleted.
    dialog = await openPresets(page);
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export' }).click();
    const file = await (await download).path();
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    expect(
      JSON.parse(text)
        .presets.map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['Lighthouse, renamed', 'Old one']);
    expect(text).not.toContain(studio.keyOf('personal'));
    await dialog.getByRole('button', { name: 'Delete Old one' }).click();
    await expect(dialog.getByRole('list', { name: 'Saved presets' }).getByRole('listitem')).toHaveCount(1);
  });

  test('a share link carries the preset, not the key, and opens the item with it', async ({
    studio,
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    await lumen(studio).choose('Style', 'Pixel art');
    await studio.prompt.fill('a shared castle');
    const saved = await studio.requestBody();
    await savePreset(page, 'Castle');
    const dialog = await openPresets(page);
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expect(dialog.getByText('Link to "Castle" copied')).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).not.toContain(studio.keyOf('personal'));
    expect(new URL(link).searchParams.get('model')).toBe('lumen-canvas');

    await page.keyboard.press('Escape');
    await studio.openTool('Style transfer');
    await page.goto(link);
    await expect(studio.form('Lumen Canvas')).toBeVisible();
    await expect(
      page.getByRole('region', { name: /^Notices/ }).getByText('Preset "Castle" applied.'),
    ).toBeVisible();
    expect(await studio.requestBody()).toEqual(saved);
    // Applied once: the link's preset leaves the address bar.
    expect(new URL(page.url()).searchParams.get('preset')).toBeNull();
  });
});

test.describe('batches', () => {
  test('Runs 3 makes exactly 3 tasks in one click, grouped in the history, charged 3x the quote', async ({
    studio,
    sandbox,
    page,
    history,
  }) => {
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    const prompt = uniquePrompt('three foxes');
    await studio.prompt.fill(prompt);
    const credits = await sandbox.agreedQuote(studio);
    await runs(page).fill('3');
    await expect(studio.quote.getByTestId('quote-batch-total')).toHaveText(creditsText(3 * credits));
    const before = await sandbox.balance();
    const postsBefore = await taskPosts(sandbox);

    await generateButton(page).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Queued 3 of 3 tasks: see History.' }),
    ).toBeVisible({
      timeout: 15_000,
    });
    const cards = history.card(prompt);
    await expect(cards).toHaveCount(3);
    for (const card of await cards.all()) await history.expectStatus(card, 'succeeded', TASK_TIMEOUT);
    const badges = cards.getByTestId('batch-badge');
    await expect(badges).toHaveCount(3);
    const batchIds = await badges.evaluateAll((els) => els.map((el) => el.getAttribute('data-batch-id')));
    expect(new Set(batchIds).size).toBe(1);
    await expect(badges.filter({ hasText: 'Batch 2/3' })).toHaveCount(1);

    expect(await taskPosts(sandbox)).toBe(postsBefore + 3);
    await expect.poll(() => sandbox.balance()).toBe(before - 3 * credits);
  });

  test('Variations expands {a|b} and lines into the prompts it shows before sending, one task each', async ({
    studio,
    sandbox,
    page,
    history,
  }) => {
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    const tag = uniquePrompt('v');
    await studio.prompt.fill(`a {red|blue} fox ${tag}\na cat ${tag}`);
    await page.getByRole('checkbox', { name: 'Variations' }).check();
    const list = page.getByRole('list', { name: 'Prompts to send' });
    const expected = [`a red fox ${tag}`, `a blue fox ${tag}`, `a cat ${tag}`];
    await expect(list.getByRole('listitem')).toHaveText(expected);
    const { credits } = await sandbox.quote(await studio.requestBody());
    await expect(studio.quote.getByTestId('quote-batch-total')).toHaveText(creditsText(3 * credits));
    await generateButton(page).click();
    await expect(page.getByRole('status').filter({ hasText: 'Queued 3 of 3 tasks' })).toBeVisible({
      timeout: 15_000,
    });
    for (const p of expected) await expect(history.card(p)).toHaveCount(1);
  });

  test('a batch over the daily cap is refused with the numbers, before any request', async ({
    studio,
    sandbox,
    page,
    history,
  }) => {
    await studio.start('capped');
    await studio.openModel('Lumen Canvas');
    // v3 HD with Enhance: 8 credits a task, so 7 runs (56 credits) pass the 50-credit cap.
    await lumen(studio).version.selectOption('lumen-canvas-v3');
    await lumen(studio).choose('Enhance', 'on');
    await studio.prompt.fill('seven lighthouses');
    const { credits } = await sandbox.quote(await studio.requestBody(), 'capped');
    const n = Math.ceil(51 / credits);
    expect(n).toBeLessThanOrEqual(10);
    await runs(page).fill(String(n));
    await expect(studio.quote.getByTestId('quote-batch-total')).toHaveText(creditsText(n * credits));
    await expect(studio.quote.getByText('Over the daily cap')).toBeVisible();
    const postsBefore = await taskPosts(sandbox);

    await generateButton(page).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Batch not sent' });
    await expect(alert).toContainText(
      `${n} tasks at ${creditsText(credits)} cost ${creditsText(n * credits)}, but only 50 credits remain under today's cap`,
    );
    expect(await taskPosts(sandbox)).toBe(postsBefore);
    await expect(history.cards).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'Sending' })).toHaveCount(0);
  });
});

test.describe('prompt library', () => {
  test('ArrowUp in an empty prompt recalls the last one sent; the library finds, pins and reuses prompts', async ({
    studio,
    page,
  }) => {
    await studio.start('personal');
    await studio.openModel('Lumen Canvas');
    const first = uniquePrompt('an owl at night');
    const second = uniquePrompt('a whale at noon');
    await generate(studio, first);
    await generate(studio, second);

    await studio.prompt.fill('');
    await studio.prompt.press('ArrowUp');
    await expect(studio.prompt).toHaveValue(second);
    // Not in a prompt that has text: ArrowUp moves the caret as usual.
    await studio.prompt.fill('typed');
    await studio.prompt.press('ArrowUp');
    await expect(studio.prompt).toHaveValue('typed');

    await page.reload();
    await expect(studio.accountButton).toBeVisible();
    await studio.form('Lumen Canvas').getByRole('button', { name: 'Prompt library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Prompt library' });
    await expect(dialog.getByRole('listitem')).toHaveCount(2);
    await dialog.getByRole('searchbox', { name: 'Search the prompt library' }).fill('OWL night');
    await expect(dialog.getByRole('listitem')).toHaveCount(1);
    const pin = dialog.getByRole('button', { name: `Pin: ${first}` });
    await pin.click();
    await expect(pin).toHaveAttribute('aria-pressed', 'true');
    await dialog.getByRole('button', { name: `Use: ${first}` }).click();
    await expect(dialog).toBeHidden();
    await expect(studio.prompt).toHaveValue(first);

    // Pinned first, though older.
    await studio.form('Lumen Canvas').getByRole('button', { name: 'Prompt library' }).click();
    await expect(dialog.getByRole('listitem').first()).toContainText(first);
  });
});
