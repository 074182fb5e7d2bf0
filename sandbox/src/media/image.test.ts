import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderImage } from './image';
import type { ImageSpec } from '../core/media-types';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

const spec = (overrides: Partial<ImageSpec> = {}): ImageSpec => ({
  kind: 'image',
  seed: 'model-a|v1|a red fox in the snow',
  prompt: 'a red fox in the snow',
  width: 640,
  height: 400,
  format: 'png',
  ...overrides,
});

async function alphaRange(
  bytes: Buffer,
): Promise<{ min: number; max: number; transparent: number; opaque: number }> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(4);
  let transparent = 0;
  let opaque = 0;
  let min = 255;
  let max = 0;
  for (let i = 3; i < data.length; i += 4) {
    const alpha = data[i] ?? 0;
    min = Math.min(min, alpha);
    max = Math.max(max, alpha);
    if (alpha === 0) transparent++;
    if (alpha === 255) opaque++;
  }
  return { min, max, transparent, opaque };
}

/** Mean absolute difference per channel between two same-sized images, 0..255. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all(
    [a, b].map((img) => sharp(img).removeAlpha().resize(64, 64, { fit: 'fill' }).raw().toBuffer()),
  );
  let sum = 0;
  for (let i = 0; i < (x?.length ?? 0); i++) sum += Math.abs((x?.[i] ?? 0) - (y?.[i] ?? 0));
  return sum / (x?.length ?? 1);
}

describe('renderImage', () => {
  it('makes a PNG of exactly the asked size', async () => {
    const out = await renderImage(spec());
    expect(out.contentType).toBe('image/png');
    expect(out.bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    const meta = await sharp(out.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 640, 400, false]);
  });

  it('makes a JPEG of exactly the asked size, portrait and large', async () => {
    const out = await renderImage(spec({ format: 'jpeg', width: 1152, height: 2048 }));
    expect(out.contentType).toBe('image/jpeg');
    expect(out.bytes.subarray(0, 3)).toEqual(JPEG_MAGIC);
    const meta = await sharp(out.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1152, 2048]);
  });

  it('gives identical bytes for the same seed and visibly different images for different seeds', async () => {
    const [a, again, b] = await Promise.all([
      renderImage(spec()),
      renderImage(spec()),
      renderImage(spec({ seed: 'model-b|v1|a red fox' })),
    ]);
    expect(again.bytes.equals(a.bytes)).toBe(true);
    expect(b.bytes.equals(a.bytes)).toBe(false);
    expect(await difference(a.bytes, b.bytes)).toBeGreaterThan(10);
  });

  it('removes the background: alpha 0 around a fully opaque centred subject', async () => {
    const out = await renderImage(spec({ transparent: true, format: 'jpeg' }));
    expect(out.contentType).toBe('image/png');
    expect(out.bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
    const alpha = await alphaRange(out.bytes);
    expect([alpha.min, alpha.max]).toEqual([0, 255]);
    expect(alpha.transparent).toBeGreaterThan(640 * 400 * 0.2);
    expect(alpha.opaque).toBeGreaterThan(640 * 400 * 0.2);
    const { data } = await sharp(out.bytes)
      .extract({ left: 0, top: 0, width: 2, height: 2 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    const centre = await sharp(out.bytes)
      .extract({ left: 319, top: 199, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(centre[3]).toBe(255);
  });

  describe('from a source image', () => {
    const source = (): Promise<Buffer> =>
      sharp({ create: { width: 300, height: 300, channels: 3, background: '#204080' } })
        .composite([
          {
            input: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect x="0" y="0" width="150" height="300" fill="#f0e040"/></svg>',
            ),
          },
        ])
        .png()
        .toBuffer();

    it('covers the target size and transforms the source while staying related to it', async () => {
      const input = await source();
      const out = await renderImage(spec({ source: input, width: 400, height: 200 }));
      const meta = await sharp(out.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([400, 200]);
      const plainSource = await sharp(input).resize(400, 200, { fit: 'cover' }).png().toBuffer();
      const art = await renderImage(spec({ width: 400, height: 200 }));
      expect(await difference(out.bytes, plainSource)).toBeGreaterThan(5);
      // Related: the source's light-left / dark-right split survives the re-grade.
      const brightness = async (left: number): Promise<number> => {
        const pixels = await sharp(out.bytes)
          .extract({ left, top: 50, width: 100, height: 100 })
          .raw()
          .toBuffer();
        return pixels.reduce((sum, value) => sum + value, 0) / pixels.length;
      };
      expect((await brightness(0)) - (await brightness(300))).toBeGreaterThan(30);
      expect(out.bytes.equals(art.bytes)).toBe(false);
    });

    it('cuts a transparent-background subject out of the source', async () => {
      const out = await renderImage(spec({ source: await source(), transparent: true }));
      const meta = await sharp(out.bytes).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 640, 400, true]);
      const alpha = await alphaRange(out.bytes);
      expect([alpha.min, alpha.max]).toEqual([0, 255]);
    });

    it('falls back to generated art when the source is not an image', async () => {
      const out = await renderImage(spec({ source: Buffer.from('not an image at all') }));
      const meta = await sharp(out.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([640, 400]);
      expect(out.bytes.equals((await renderImage(spec())).bytes)).toBe(true);
    });
  });
});
