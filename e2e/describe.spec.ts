import { expect, test } from './fixtures';
import { png } from './media-helpers';

// product-notes §3 "Describe image": drop an image, choose the language, read every field, and "Use as
// prompt" fills the open form's prompt.

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
});

test('describe image fills the prompt, in the language chosen', async ({ studio, page }) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  await studio.prompt.fill('to be replaced');
  await page.getByRole('button', { name: 'Describe image' }).click();
  const dialog = page.getByRole('dialog', { name: 'Describe image' });
  const image = dialog.getByRole('group', { name: 'Image' });
  await image.getByLabel('Upload file', { exact: true }).setInputFiles(await png(300, 200, 'sunset.png'));
  await expect(image.getByRole('status')).toContainText('sunset.png is ready.');
  await dialog.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await dialog.getByRole('button', { name: 'Describe', exact: true }).click();
  const result = dialog.getByRole('region', { name: 'Description' });
  for (const label of [
    'Overall description',
    'Subject',
    'Composition',
    'Style',
    'Lighting',
    'Palette',
    'Mood',
  ])
    await expect(result.getByText(label, { exact: true })).toBeVisible();
  await expect(result).toContainText('1 credit charged');
  const overall = (await result.locator('dt:text-is("Overall description") + dd').textContent())!.trim();
  expect(overall.length).toBeGreaterThan(20);
  await dialog.getByRole('button', { name: 'Use as prompt' }).click();
  await expect(dialog).toBeHidden();
  await expect(studio.prompt).toHaveValue(overall);
});

test('a refused image gets its message and the credit back', async ({ studio, page }) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  await page.getByRole('button', { name: 'Describe image' }).click();
  const dialog = page.getByRole('dialog', { name: 'Describe image' });
  const image = dialog.getByRole('group', { name: 'Image' });
  // Uploads pass moderation; the vision model refuses SANDBOX-REFUSE (product-notes §4).
  const file = await png(64, 64, 'refuse.png');
  await image
    .getByLabel('Upload file', { exact: true })
    .setInputFiles({ ...file, buffer: Buffer.concat([file.buffer, Buffer.from('SANDBOX-REFUSE')]) });
  await expect(image.getByRole('status')).toContainText('refuse.png is ready.');
  await dialog.getByRole('button', { name: 'Describe', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('The credit was refunded.');
});
