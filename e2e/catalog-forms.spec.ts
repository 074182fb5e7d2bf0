import type { Locator } from '@playwright/test';
import { CATEGORIES, expect, labelOf, test, type ParamDef } from './fixtures';

// product-notes §3 "Catalog" and "The form engine": every category lists models, and the form of a model
// has one control per param definition, named by its displayName or id (product-notes §5).

const MEDIA_TYPES = new Set([
  'image',
  'image_url',
  'first_frame',
  'last_frame',
  'mask_url',
  'video_url',
  'audio_url',
  'image_urls',
]);
const KNOWN_TYPES = new Set([
  ...MEDIA_TYPES,
  'enum',
  'text',
  'long_text',
  'aspect_ratio',
  'resolution',
  'voice',
]);

/** The control a definition must have in the form, found the way a person or screen reader finds it. */
function controlFor(form: Locator, def: ParamDef): Locator {
  const name = labelOf(def);
  const exact = { name, exact: true };
  switch (def.type) {
    case 'aspect_ratio':
      // A fieldset named by its legend, holding a radio group of the same name.
      return form.getByRole('group', exact).getByRole('radiogroup', exact);
    case 'enum':
    case 'resolution':
      // A few short options: a segmented radio group in a named fieldset; otherwise a select.
      return form
        .getByRole('group', exact)
        .getByRole('radiogroup', exact)
        .or(form.getByRole('combobox', exact));
    case 'voice':
      return form.getByRole('combobox', exact);
    case 'text':
    case 'long_text':
      return form.getByRole('textbox', exact);
    default:
      if (MEDIA_TYPES.has(def.type)) {
        // A fieldset named by the label, with the URL input labelled the same.
        return form.getByRole('group', exact).getByLabel(name, { exact: true });
      }
      // Any other type: a plain text input.
      return form.getByRole('textbox', exact);
  }
}

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
});

test('the three catalog tabs open', async ({ studio }) => {
  for (const name of ['AI tools', 'Templates', 'Models'] as const) {
    await studio.tab(name).click();
    await expect(studio.tab(name)).toHaveAttribute('aria-selected', 'true');
    await expect(studio.panel(name)).toBeVisible();
    await expect(studio.panel(name).getByRole('listitem').first()).toBeVisible();
  }
});

test('every one of the 13 categories lists models, and its first model opens a form matching its param definitions', async ({
  studio,
  sandbox,
}) => {
  test.setTimeout(90_000);
  await expect(studio.category.locator('option')).toHaveCount(13);
  const values = await studio.category
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(values).toEqual([...CATEGORIES]);

  const models = studio.panel('Models');
  for (const category of CATEGORIES) {
    await test.step(category, async () => {
      const defined = await sandbox.models(category);
      expect(defined.length, `${category} has models in the sandbox`).toBeGreaterThan(0);
      const first = defined[0]!;

      await studio.category.selectOption(category);
      await expect(models.getByRole('listitem')).toHaveCount(defined.length);
      const firstCard = models.getByRole('listitem').first().getByRole('button');
      await expect(firstCard).toContainText(first.name);
      // api-notes §1: outside image/default and video/text-ref the first model is the recommended one.
      const ranked = category !== 'image/default' && category !== 'video/text-ref';
      await expect(firstCard.getByText('Recommended', { exact: true })).toHaveCount(ranked ? 1 : 0);

      await firstCard.click();
      const form = studio.form(first.name);
      await expect(form).toBeVisible();
      await expect(form.getByRole('combobox', { name: 'Version', exact: true })).toHaveValue(
        first.versions[0]!.id,
      );
      await expect(form.getByRole('textbox', { name: 'Prompt', exact: true })).toBeVisible();
      for (const def of first.params) {
        await expect(controlFor(form, def), `${first.id}: ${def.id} (${def.type})`).toBeVisible();
        if (!KNOWN_TYPES.has(def.type)) {
          await expect(form.getByText(`unrecognised parameter type ${def.type}`)).toBeVisible();
          await expect(
            form.getByRole('textbox', { name: labelOf(def), exact: true }),
          ).toHaveAccessibleDescription(new RegExp(`unrecognised parameter type ${def.type}`));
        }
      }
    });
  }
});

test('a param of a type the studio does not know is a text input with the "unrecognised parameter type" note', async ({
  studio,
  sandbox,
}) => {
  const vector = (await sandbox.models('image/image-svg')).find((m) => m.id === 'quill-vector')!;
  const unknown = vector.params.find((p) => !KNOWN_TYPES.has(p.type))!;
  expect(unknown, 'the fixture has a param of an unknown type').toBeDefined();

  const form = await studio.openModel(vector.name, 'image/image-svg');
  const input = form.getByRole('textbox', { name: labelOf(unknown), exact: true });
  await expect(input).toBeVisible();
  await expect(input).toHaveValue(String(unknown.default ?? ''));
  await expect(form.getByText(`unrecognised parameter type ${unknown.type}`, { exact: true })).toBeVisible();
});

test('a param without displayName is labelled by its id, a dotted id included', async ({
  studio,
  sandbox,
}) => {
  const aurora = (await sandbox.models('image/default')).find((m) => m.id === 'northwind-aurora')!;
  const seed = aurora.params.find((p) => !p.displayName)!;
  let form = await studio.openModel(aurora.name);
  await expect(form.getByRole('textbox', { name: seed.id, exact: true })).toBeVisible();

  const dream = (await sandbox.models('video/text-ref')).find((m) => m.id === 'halcyon-dream')!;
  const dotted = dream.params.find((p) => p.id.includes('.') && !p.displayName)!;
  form = await studio.openModel(dream.name, 'video/text-ref');
  await expect(controlFor(form, dotted)).toBeVisible();
});

test('AI tools: the Image / Video filter lists the tools of that type, and a tool shows only its editable params', async ({
  studio,
  sandbox,
}) => {
  const imageTools = await sandbox.aiTools('image');
  const videoTools = await sandbox.aiTools('video');
  expect(imageTools.length).toBeGreaterThan(0);
  expect(videoTools.length).toBeGreaterThan(0);

  await studio.tab('AI tools').click();
  const panel = studio.panel('AI tools');
  const filter = panel.getByRole('radiogroup', { name: 'AI tool type' });
  await expect(filter.getByRole('radio', { name: 'All' })).toBeChecked();
  await expect(panel.getByRole('listitem')).toHaveCount(imageTools.length + videoTools.length);

  await filter.getByRole('radio', { name: 'Video' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(videoTools.length);
  for (const tool of videoTools) await expect(studio.card(tool.name, panel)).toBeVisible();
  for (const tool of imageTools) await expect(studio.card(tool.name, panel)).toHaveCount(0);

  await filter.getByRole('radio', { name: 'Image' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(imageTools.length);
  for (const tool of imageTools) await expect(studio.card(tool.name, panel)).toBeVisible();
  for (const tool of videoTools) await expect(studio.card(tool.name, panel)).toHaveCount(0);

  // Style transfer fixes its prompt and resolution: the form shows only the editable params.
  const tool = imageTools.find((t) => t.slug === 'style-transfer')!;
  await studio.card(tool.name, panel).click();
  const form = studio.form(tool.name);
  await expect(form).toBeVisible();
  await expect(studio.page).toHaveURL(/[?&]tool=style-transfer(&|$)/);
  for (const def of tool.params) await expect(controlFor(form, def)).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Prompt', exact: true })).toHaveCount(0);
  await expect(form.getByRole('group', { name: 'Resolution' })).toHaveCount(0);
  await expect(form.getByRole('combobox', { name: 'Version' })).toHaveCount(0);
  // One legend or label per editable param, nothing else (the submit bar's Runs is not a param).
  await expect(
    form.locator('legend, label:not(:has(input[type=file]))').filter({ hasNotText: /^Runs$/ }),
  ).toHaveCount(tool.params.length);

  // With its required photo given (a service-hosted URL), the request carries only editable params.
  await expect(studio.copyRequestButton).toBeDisabled();
  await form.getByRole('group', { name: 'Photo', exact: true }).getByLabel('Photo').fill(tool.coverUrl!);
  await expect(studio.copyRequestButton).toBeEnabled();
  const body = await studio.requestBody();
  expect(body.aiTool).toBe('style-transfer');
  expect(Object.keys(body.params as object).sort()).toEqual(
    expect.arrayContaining(tool.params.filter((p) => p.default !== undefined).map((p) => p.id)),
  );
  for (const id of Object.keys(body.params as object)) {
    expect(
      tool.params.map((p) => p.id),
      `${id} is an editable param`,
    ).toContain(id);
  }
});

test('Templates: Official and Community badges, a video cover is a <video>, and a template opens', async ({
  studio,
  sandbox,
}) => {
  await studio.tab('Templates').click();
  const panel = studio.panel('Templates');
  await expect(studio.card('Neon city poster', panel).getByText('Official', { exact: true })).toBeVisible();
  await expect(studio.card('Neon city poster', panel).getByText('Community', { exact: true })).toHaveCount(0);
  await expect(studio.card('Watercolor pets', panel).getByText('Community', { exact: true })).toBeVisible();
  await expect(studio.card('Watercolor pets', panel).getByText('Official', { exact: true })).toHaveCount(0);

  const drone = studio.card('Drone flyover', panel);
  await expect(drone.locator('video')).toHaveCount(1);
  await expect(drone.locator('video')).toHaveJSProperty('muted', true);
  await expect(drone.locator('img')).toHaveCount(0);
  await expect(studio.card('Neon city poster', panel).locator('video')).toHaveCount(0);

  // The gallery keeps the service's order.
  const listed = await sandbox.templates();
  await expect(panel.getByRole('listitem')).toHaveCount(listed.length);
  const texts = await panel.getByRole('listitem').allTextContents();
  listed.forEach((t, i) => expect(texts[i], `card ${i}`).toContain(t.name));

  await drone.click();
  const form = studio.form('Drone flyover');
  await expect(form).toBeVisible();
  await expect(form.getByText('Official', { exact: true })).toBeVisible();
  await expect(form.getByRole('group', { name: 'Aspect ratio', exact: true })).toBeVisible();
  await expect(studio.page).toHaveURL(/[?&]template=drone-flyover(&|$)/);
});

test('"Search catalog" filters by name, brand and tag', async ({ studio }) => {
  const models = studio.panel('Models');
  const cards = models.getByRole('listitem');

  // By name, across every category.
  await studio.search.fill('aurora');
  await expect(models.getByText('1 model matches across all categories.')).toBeVisible();
  await expect(studio.card('Aurora XL', models)).toBeVisible();
  await expect(cards).toHaveCount(1);

  // By brand: Echoform Audio's models live in four categories.
  await studio.search.fill('echoform');
  await expect(models.getByText(/models match across all categories\./)).toBeVisible();
  for (const name of ['Voice', 'Twin', 'Foley', 'Score', 'LipSync']) {
    await expect(studio.card(name, models)).toBeVisible();
  }
  await expect(studio.card('Lumen Canvas', models)).toHaveCount(0);
  for (const card of await cards.all()) await expect(card).toContainText('Echoform Audio');

  // By tag.
  await studio.search.fill('photoreal');
  await expect(cards).toHaveCount(1);
  await expect(studio.card('Aurora XL', models)).toBeVisible();

  // Nothing matches: said so, and the search can be cleared.
  await studio.search.fill('zzzz-no-such-thing');
  await expect(models.getByText('No model matches your search in any category.')).toBeVisible();
  await models.getByRole('button', { name: 'Clear search' }).click();
  await expect(studio.search).toHaveValue('');
  await expect(studio.card('Lumen Canvas', models)).toBeVisible();

  // Templates, by tag and by name.
  await studio.tab('Templates').click();
  const templates = studio.panel('Templates');
  await studio.search.fill('cyberpunk');
  await expect(templates.getByRole('listitem')).toHaveCount(1);
  await expect(studio.card('Neon city poster', templates)).toBeVisible();
  await studio.search.fill('postcard');
  await expect(templates.getByRole('listitem')).toHaveCount(1);
  await expect(studio.card('Vintage postcard', templates)).toBeVisible();

  // AI tools, by name.
  await studio.tab('AI tools').click();
  await studio.search.fill('upscale');
  const tools = studio.panel('AI tools');
  await expect(tools.getByRole('listitem')).toHaveCount(1);
  await expect(studio.card('Upscale 4x', tools)).toBeVisible();
});
