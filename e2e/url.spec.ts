import { expect, test, type Studio } from './fixtures';

// product-notes §3 "Catalog": the selection lives in the URL (?model=&version=, ?tool=, ?template=) so a
// setup can be linked and reloaded; the key never does.

const params = (studio: Studio) => new URL(studio.page.url()).searchParams;

function expectNoKeyInUrl(studio: Studio) {
  const url = studio.page.url();
  for (const name of ['personal', 'team'] as const) expect(url).not.toContain(studio.keyOf(name));
  expect(url).not.toMatch(/gm_live_/);
}

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
});

test('a model and its version are in the URL; a reload and the link reopen the same form', async ({
  studio,
  page,
}) => {
  let form = await studio.openModel('Lumen Canvas');
  await expect(page).toHaveURL(/[?&]model=lumen-canvas(&|$)/);
  expect(params(studio).get('version')).toBe('lumen-canvas-v2');
  expectNoKeyInUrl(studio);

  // Changing the version updates the URL.
  await form.getByRole('combobox', { name: 'Version', exact: true }).selectOption('lumen-canvas-v3');
  await expect(page).toHaveURL(/[?&]version=lumen-canvas-v3(&|$)/);
  expect(params(studio).get('model')).toBe('lumen-canvas');
  const link = page.url();

  await page.reload();
  form = studio.form('Lumen Canvas');
  await expect(form).toBeVisible();
  await expect(form.getByRole('combobox', { name: 'Version', exact: true })).toHaveValue('lumen-canvas-v3');
  await expect(studio.prompt).toBeVisible();
  await expect(page).toHaveURL(link);

  // Away and back through the link, in the same session (the tab still holds the key).
  await page.goto('/');
  await expect(studio.page.getByText('Pick a model, an AI tool or a template to start.')).toBeVisible();
  await page.goto(link);
  await expect(form).toBeVisible();
  await expect(form.getByRole('combobox', { name: 'Version', exact: true })).toHaveValue('lumen-canvas-v3');
  expectNoKeyInUrl(studio);
});

test('a link with only ?model=&version= (no category) finds the model in its category', async ({
  studio,
  page,
}) => {
  await page.goto('/?model=quill-narrator&version=quill-narrator-hd');
  const form = studio.form('Narrator');
  await expect(form).toBeVisible();
  await expect(form.getByRole('combobox', { name: 'Version', exact: true })).toHaveValue('quill-narrator-hd');
  await expect(studio.category).toHaveValue('audio/text-to-speech');
  await expect(studio.card('Narrator', studio.panel('Models'))).toHaveAttribute('aria-current', 'true');
});

test('an AI tool is ?tool= and a template ?template=; each reloads to the same form', async ({
  studio,
  page,
}) => {
  await studio.openTool('Style transfer');
  await expect(page).toHaveURL(/[?&]tool=style-transfer(&|$)/);
  expect(params(studio).get('model')).toBeNull();
  expectNoKeyInUrl(studio);
  await page.reload();
  await expect(studio.form('Style transfer')).toBeVisible();
  await expect(studio.tab('AI tools')).toHaveAttribute('aria-selected', 'true');
  await expect(
    studio.form('Style transfer').getByRole('group', { name: 'Style', exact: true }),
  ).toBeVisible();

  await studio.openTemplate('Vintage postcard');
  await expect(page).toHaveURL(/[?&]template=vintage-postcard(&|$)/);
  expect(params(studio).get('tool')).toBeNull();
  expectNoKeyInUrl(studio);
  await page.reload();
  await expect(studio.form('Vintage postcard')).toBeVisible();
  await expect(studio.tab('Templates')).toHaveAttribute('aria-selected', 'true');
  await expect(
    studio.form('Vintage postcard').getByRole('group', { name: 'Your photo', exact: true }),
  ).toBeVisible();

  // Back goes to the previous selection.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]tool=style-transfer(&|$)/);
  await expect(studio.form('Style transfer')).toBeVisible();
});

test('with the key remembered, the link opens the same form in a new tab', async ({
  studio,
  page,
  context,
}) => {
  await studio.page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Disconnect' }).click();
  await studio.connect('personal', { remember: true });
  await studio.openTemplate('Neon city poster');
  const link = page.url();

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('form', { name: 'Neon city poster', exact: true })).toBeVisible();
  expect(other.url()).not.toContain(studio.keyOf('personal'));
  await other.close();
});
