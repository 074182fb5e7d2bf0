// The pixels describe-image reads (core/describe): one upright frame's size, and a copy of the image
// small enough to walk pixel by pixel, with sharp's statistics of it.
import sharp from 'sharp';
import type { ImageSample } from '../core/media-works';

const INPUT = { failOn: 'none', limitInputPixels: false } as const;

export async function sampleImage(bytes: Buffer, maxSide: number): Promise<ImageSample> {
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes, INPUT).metadata();
    width = meta.autoOrient?.width ?? meta.width ?? 1;
    height = meta.autoOrient?.height ?? meta.height ?? 1;
    // Multi-page (animated) images report the whole strip; describe one frame.
    const pages = meta.pages ?? 1;
    if (pages > 1 && meta.pageHeight && height === meta.pageHeight * pages) height = meta.pageHeight;
  } catch (err) {
    throw new Error(
      `describeImage: not a decodable image (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  width = Math.max(1, width);
  height = Math.max(1, height);
  try {
    return { width, height, pixels: await pixelsOf(bytes, maxSide) };
  } catch {
    return { width, height, pixels: null }; // header readable but pixels not
  }
}

async function pixelsOf(bytes: Buffer, maxSide: number): Promise<ImageSample['pixels']> {
  const { data, info } = await sharp(bytes, { ...INPUT, autoOrient: true })
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const stats = await sharp(data, { raw: { width, height, channels } }).stats();
  return {
    data,
    width,
    height,
    channels,
    dominant: stats.dominant,
    entropy: stats.entropy,
    sharpness: stats.sharpness,
  };
}
