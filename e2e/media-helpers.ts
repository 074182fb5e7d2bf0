import sharp from 'sharp';
import type { Locator, Page } from '@playwright/test';
import { SANDBOX_BASE_URL, expect, type DemoKeyName, type Sandbox } from './fixtures';

// Files for the upload tests, made here (real PNGs from sharp, real MP4s from the sandbox's own
// renders), and the gestures a person makes with them: drop, browse, paste.

export interface TestFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A real PNG of the given size: a gradient, so describe-image has something to see. */
export async function png(width = 640, height = 480, name = 'photo.png'): Promise<TestFile> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = Math.round((x / width) * 255);
      pixels[i + 1] = Math.round((y / height) * 200);
      pixels[i + 2] = 180;
    }
  const buffer = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** The sandbox's moderation trigger (product-notes §4): the ASCII text SANDBOX-BLOCK anywhere in the bytes. */
export const withBlockMark = (file: TestFile, name = `blocked-${file.name}`): TestFile => ({
  ...file,
  name,
  buffer: Buffer.concat([file.buffer, Buffer.from('SANDBOX-BLOCK')]),
});

/** A real MP4: the output of a short video task run through the API. */
export async function mp4(
  sandbox: Sandbox,
  page: Page,
  keyName: DemoKeyName = 'personal',
): Promise<TestFile> {
  const task = (await sandbox.runTask(
    {
      interfaceId: 'halcyon-dream',
      versionId: 'halcyon-dream-1-5',
      params: { prompt: 'a short clip for upload tests', duration: '5' },
    },
    keyName,
  )) as { status: string; outputs?: Array<{ url: string }> };
  expect(task.status).toBe('succeeded');
  const res = await page.request.get(task.outputs![0]!.url);
  expect(res.ok()).toBe(true);
  return { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await res.body() };
}

/** Drops files on a drop zone the way a browser does: a DataTransfer carried by drag events. */
export async function dropFiles(
  target: Locator,
  files: Array<TestFile | { name: string; mimeType: string; size: number }>,
) {
  const payload: Array<{ name: string; mimeType: string; base64?: string; size?: number }> = files.map((f) =>
    'buffer' in f
      ? { name: f.name, mimeType: f.mimeType, base64: f.buffer.toString('base64') }
      : { name: f.name, mimeType: f.mimeType, size: f.size },
  );
  const dataTransfer = await target.page().evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes =
        f.base64 !== undefined
          ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))
          : new Uint8Array(f.size ?? 0); // zeros: only the size matters to the check
      dt.items.add(new File([bytes], f.name, { type: f.mimeType }));
    }
    return dt;
  }, payload);
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** Pastes a file (a screenshot from the clipboard) into the focused drop zone. */
export async function pasteFile(target: Locator, file: TestFile) {
  await target.evaluate(
    (element, f) => {
      const dt = new DataTransfer();
      dt.items.add(
        new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }),
      );
      element.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }),
      );
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64') },
  );
}

/** The drop zone of a media field: the field's group holds it (it is the parent of "Browse files"). */
export const dropZoneOf = (group: Locator) =>
  group
    .getByRole('button', { name: 'Browse files' })
    .locator('xpath=ancestor::div[contains(@class,"border-dashed")][1]');

export async function uploadRequests(sandbox: Sandbox): Promise<number> {
  return (await sandbox.requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/uploads')).length;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A PNG's uncompressed iTXt and tEXt chunks, keyword to text (read chunk by chunk, as any reader does). */
export function pngTextChunks(bytes: Buffer): Map<string, string> {
  const texts = new Map<string, string>();
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('ascii');
    const data = bytes.subarray(at + 8, at + 8 + length);
    const nul = data.indexOf(0);
    if (type === 'tEXt' && nul > 0)
      texts.set(data.subarray(0, nul).toString('latin1'), data.subarray(nul + 1).toString('latin1'));
    if (type === 'iTXt' && nul > 0 && data[nul + 1] === 0) {
      // keyword \0 compression flag, method, language \0, translated keyword \0, text
      const language = data.indexOf(0, nul + 3);
      const translated = data.indexOf(0, language + 1);
      texts.set(data.subarray(0, nul).toString('latin1'), data.subarray(translated + 1).toString('utf8'));
    }
    at += 12 + length;
  }
  return texts;
}

export { SANDBOX_BASE_URL };
