import type { Page } from '@playwright/test';
import { SANDBOX_ORIGIN, expect, test, type Sandbox, type Studio } from './fixtures';
import {
  dropFiles,
  dropZoneOf,
  pasteFile,
  mp4,
  png,
  pngSize,
  uploadRequests,
  withBlockMark,
} from './media-helpers';

// product-notes §3 "Uploads" and the media rows of "The form engine": every media param is a
// drop zone that checks files before any request, uploads with progress, waits out video moderation,
// and reuses earlier uploads without sending them again.

test.beforeEach(async ({ studio }) => {
  await studio.start('personal');
});

/** Opens Puppeteer and uploads a short clip as its motion reference; answers the clip and the field. */
async function uploadMotionReference(studio: Studio, sandbox: Sandbox, page: Page) {
  const video = await mp4(sandbox, page);
  const form = await studio.openModel('Puppeteer', 'video/motion-control');
  const group = form.getByRole('group', { name: 'Motion reference' });
  await group.getByLabel('Upload file', { exact: true }).setInputFiles(video);
  return { video, group };
}

const CDN_UPLOAD = new RegExp(`^${SANDBOX_ORIGIN.replace(/\./g, '\\.')}/cdn/uploads/`);

test('an image dropped becomes ready and its URL is the param value', async ({ studio, page, sandbox }) => {
  const form = await studio.openModel('Upscale Pro', 'image/default');
  const group = form.getByRole('group', { name: 'Image to upscale' });
  await dropFiles(dropZoneOf(group), [await png(320, 200, 'dropped.png')]);
  await expect(group.getByRole('status')).toContainText('dropped.png is ready.');
  await expect(group.getByRole('img', { name: 'Preview of Image to upscale' })).toBeVisible();
  const body = await studio.requestBody();
  const url = (body.params as Record<string, string>).image!;
  expect(url).toMatch(CDN_UPLOAD);
  const served = await page.request.get(url);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(pngSize(await served.body())).toEqual({ width: 320, height: 200 });
  expect(await uploadRequests(sandbox)).toBe(1);
});

test('an image pasted from the clipboard is uploaded', async ({ studio }) => {
  const form = await studio.openModel('Upscale Pro', 'image/default');
  const group = form.getByRole('group', { name: 'Image to upscale' });
  await group.getByRole('button', { name: 'Browse files' }).focus();
  await pasteFile(group.getByRole('button', { name: 'Browse files' }), await png(120, 90, 'screenshot.png'));
  await expect(group.getByRole('status')).toContainText('screenshot.png is ready.');
  await expect(group.getByRole('textbox', { name: 'Image to upscale' })).toHaveValue(CDN_UPLOAD);
});

test('a wrong type and an over-100-MB file are refused with a message and no request', async ({
  studio,
  sandbox,
}) => {
  const form = await studio.openModel('Upscale Pro', 'image/default');
  const group = form.getByRole('group', { name: 'Image to upscale' });
  // The file dialog can bypass `accept`: a text file named like an image is checked by its bytes.
  await group.getByLabel('Upload file', { exact: true }).setInputFiles({
    name: 'notes.png',
    mimeType: 'image/png',
    buffer: Buffer.from('just some text, not an image'),
  });
  await expect(group.getByRole('status')).toContainText('notes.png: This file type is not accepted here');
  await dropFiles(dropZoneOf(group), [
    { name: 'huge.png', mimeType: 'image/png', size: 100 * 1024 * 1024 + 1 },
  ]);
  await expect(group.getByRole('status')).toContainText('larger than the 100 MB limit');
  await dropFiles(dropZoneOf(group), [{ name: 'song.mp3', mimeType: 'audio/mpeg', size: 2048 }]);
  await expect(group.getByRole('status')).toContainText('Accepted: PNG, JPEG, WebP, GIF');
  expect(await uploadRequests(sandbox)).toBe(0);
  await expect(group.getByRole('textbox', { name: 'Image to upscale' })).toHaveValue('');
});

test('a SANDBOX-BLOCK image shows its moderation labels', async ({ studio }) => {
  const form = await studio.openModel('Upscale Pro', 'image/default');
  const group = form.getByRole('group', { name: 'Image to upscale' });
  await group.getByLabel('Upload file', { exact: true }).setInputFiles(withBlockMark(await png(64, 64)));
  const status = group.getByRole('status');
  await expect(status).toContainText('was blocked by content moderation');
  await expect(status).toContainText(/labels: \S+/);
  await expect(group.getByRole('textbox', { name: 'Image to upscale' })).toHaveValue('');
});

test('a video goes processing -> ready; a SANDBOX-BLOCK video ends blocked', async ({
  studio,
  sandbox,
  page,
}) => {
  const { video, group } = await uploadMotionReference(studio, sandbox, page);
  const status = group.getByRole('status');
  await expect(status).toContainText('processing');
  await expect(status).toContainText('clip.mp4 is ready.', { timeout: 20_000 });
  await expect(group.getByRole('textbox', { name: 'Motion reference' })).toHaveValue(CDN_UPLOAD);
  await expect(group.locator('video')).toHaveAttribute('src', CDN_UPLOAD);

  await group.getByLabel('Upload file', { exact: true }).setInputFiles(withBlockMark(video, 'blocked.mp4'));
  await expect(status).toContainText('processing');
  await expect(status).toContainText('blocked.mp4 was blocked by content moderation', { timeout: 20_000 });
});

test('an upload in flight can be cancelled and the field keeps its value', async ({
  studio,
  sandbox,
  page,
}) => {
  const { group } = await uploadMotionReference(studio, sandbox, page);
  await expect(group.getByRole('status')).toContainText('processing');
  await group.getByRole('button', { name: 'Cancel upload of clip.mp4' }).click();
  await expect(group.getByRole('status')).toContainText('Upload of clip.mp4 cancelled.');
  await expect(group.getByRole('textbox', { name: 'Motion reference' })).toHaveValue('');
});

test('a previous upload is reused from the library without a new POST /uploads', async ({
  studio,
  sandbox,
}) => {
  let form = await studio.openModel('Upscale Pro', 'image/default');
  let group = form.getByRole('group', { name: 'Image to upscale' });
  await group.getByLabel('Upload file', { exact: true }).setInputFiles(await png(200, 200, 'reuse-me.png'));
  await expect(group.getByRole('status')).toContainText('reuse-me.png is ready.');
  const uploaded = await group.getByRole('textbox', { name: 'Image to upscale' }).inputValue();
  expect(await uploadRequests(sandbox)).toBe(1);

  form = await studio.openModel('Aurora XL', 'image/default');
  await studio.prompt.fill('the same scene at night');
  group = form.getByRole('group', { name: 'Reference image' });
  await group.getByRole('button', { name: 'From library' }).click();
  const library = studio.page.getByRole('dialog', { name: 'Library: images' });
  await library.getByRole('button', { name: /^Use reuse-me\.png/ }).click();
  await expect(library).toBeHidden();
  await expect(group.getByRole('textbox', { name: 'Reference image' })).toHaveValue(uploaded);
  expect(((await studio.requestBody()).params as Record<string, string>).image).toBe(uploaded);
  expect(await uploadRequests(sandbox)).toBe(1);
});

test('image_urls takes several files, reorders and removes them, up to its maximum', async ({
  studio,
  page,
}) => {
  const form = await studio.openModel('Lumen Canvas', 'image/default');
  await studio.prompt.fill('a quiet harbour');
  const group = form.getByRole('group', { name: 'Style references' });
  await dropFiles(dropZoneOf(group), [
    await png(40, 40, 'a.png'),
    await png(50, 50, 'b.png'),
    await png(60, 60, 'c.png'),
  ]);
  await expect(group.getByText('3 of 4 files')).toBeAttached();
  const urls = async () =>
    ((await studio.requestBody()).params as Record<string, string[]>).reference_images!;
  const before = await urls();
  expect(before).toHaveLength(3);
  await group.getByRole('button', { name: 'Move Style references 3 earlier' }).click();
  expect(await urls()).toEqual([before[0], before[2], before[1]]);
  await group.getByRole('button', { name: 'Remove Style references 1' }).click();
  expect(await urls()).toEqual([before[2], before[1]]);
  await dropFiles(dropZoneOf(group), [
    await png(40, 40, 'd.png'),
    await png(40, 40, 'e.png'),
    await png(40, 40, 'f.png'),
  ]);
  await expect(
    page.getByRole('region', { name: /^Notices/ }).getByText('Only 2 more files fit; the rest were skipped.'),
  ).toBeVisible();
  await expect(group.getByText('4 of 4 files')).toBeAttached();
});

test('a mask painted on an edit-image model is uploaded as a PNG of the source size', async ({
  studio,
  page,
}) => {
  const form = await studio.openModel('Inpaint', 'image/edit-image');
  await studio.prompt.fill('a window with a view');
  const source = form.getByRole('group', { name: 'Source image' });
  await source.getByLabel('Upload file', { exact: true }).setInputFiles(await png(640, 480, 'room.png'));
  await expect(source.getByRole('status')).toContainText('room.png is ready.');

  const mask = form.getByRole('group', { name: 'Mask' });
  await mask.getByRole('button', { name: 'Paint mask' }).click();
  const painter = page.getByRole('dialog', { name: 'Paint Mask' });
  await expect(painter.getByText(/white/i).first()).toBeVisible();
  const canvas = painter.getByLabel('Mask painting area');
  await expect(canvas).toBeVisible();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 8 });
  await page.mouse.up();
  await painter.getByRole('button', { name: 'Use mask' }).click();
  await expect(painter).toBeHidden();
  await expect(mask.getByRole('status')).toContainText('mask.png is ready.');

  const url = ((await studio.requestBody()).params as Record<string, string>).mask_url!;
  expect(url).toMatch(CDN_UPLOAD);
  const served = await page.request.get(url);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(pngSize(await served.body())).toEqual({ width: 640, height: 480 });
});

test('a voice preview plays', async ({ studio, page }) => {
  const form = await studio.openModel('Voice', 'audio/text-to-speech');
  await form.getByRole('combobox', { name: 'Voice' }).selectOption({ label: 'Bram: calm, British' });
  const play = form.getByRole('button', { name: 'Play preview of Bram: calm, British' });
  await play.click();
  await expect(form.getByRole('button', { name: 'Stop preview of Bram: calm, British' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The preview's <audio> really plays: it is not paused and its clock moves.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('audio')].some((a) => !a.paused && a.currentTime > 0),
      ),
    )
    .toBe(true);
});

test('a voice sample recorded from the microphone is uploaded as audio/webm', async ({ studio, page }) => {
  const form = await studio.openModel('Twin', 'audio/voice-clone');
  const group = form.getByRole('group', { name: 'Voice sample' });
  await group.getByRole('button', { name: 'Record', exact: true }).click();
  const stop = group.getByRole('button', { name: /^Stop recording/ });
  await expect(stop).toContainText('0:01');
  await stop.click();
  await expect(group.getByRole('status')).toContainText(/recording-.*\.webm is ready\./);
  const url = await group.getByRole('textbox', { name: 'Voice sample' }).inputValue();
  const served = await page.request.get(url);
  expect(served.headers()['content-type']).toBe('audio/webm');
});
