// Raster images (PNG/JPEG) through sharp. Without a source the picture is the seed's generative art;
// with one (image-to-image, edit, upscale) the source is recoloured and overlaid with that art, so
// the output is recognisably derived from the input yet different per prompt and model.
import sharp from 'sharp';
import { artSvg, subjectMaskSvg } from './art';
import { createPalette } from './palette';
import { createRng } from './random';
import type { ImageSpec, RenderedMedia } from '../core/media-types';

export interface DecodedImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * Decodes an uploaded image, upright and cropped to cover width x height, as raw pixels. Returns
 * null when the bytes are not a decodable image: uploads are only checked by Content-Type, and the
 * sandbox then falls back to generating from the seed rather than failing the task.
 */
export async function decodeSource(
  source: Buffer,
  width: number,
  height: number,
): Promise<DecodedImage | null> {
  try {
    const { data, info } = await sharp(source, { failOn: 'none', animated: false })
      .autoOrient()
      .resize(width, height, { fit: 'cover' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, info: { width: info.width, height: info.height, channels: 4 } };
  } catch {
    return null;
  }
}

/** Side of the output, clamped to what sharp accepts. */
function dimension(value: number): number {
  return Math.min(16_384, Math.max(1, Math.round(value)));
}

export async function renderImage(spec: ImageSpec): Promise<RenderedMedia> {
  const width = dimension(spec.width);
  const height = dimension(spec.height);
  const art = Buffer.from(artSvg(spec.seed, width, height));
  const source = spec.source ? await decodeSource(spec.source, width, height) : null;
  const base = source ? sharp(source.data, { raw: source.info }) : sharp(art);

  if (spec.transparent) {
    // Background removal: keep a centred subject, make everything else fully transparent. Always
    // PNG, whatever the asked format: JPEG has no alpha (api-notes §2: PNG when the source has transparency).
    const mask = Buffer.from(subjectMaskSvg(spec.seed, width, height));
    const bytes = await base
      .ensureAlpha()
      .composite([{ input: mask, blend: 'dest-in' }])
      .png()
      .toBuffer();
    return { bytes, contentType: 'image/png' };
  }

  let opaque = base;
  if (source) {
    // Re-grade the source: rotate its hues, then lay the seed's art over it in soft light, which
    // keeps the source's shapes and shading while taking on the new palette. Sharp composites
    // after every other operation, so flattening needs a second pass.
    const hue = createRng(spec.seed, 'image-edit').int(30, 330);
    const graded = await base
      .modulate({ hue, saturation: 1.15 })
      .composite([{ input: art, blend: 'soft-light' }])
      .raw()
      .toBuffer();
    opaque = sharp(graded, { raw: source.info });
    if (spec.format === 'png') {
      // A PNG keeps the source's transparency (api-notes §2: PNG when the source has transparency).
      const bytes = await opaque
        .composite([{ input: source.data, raw: source.info, blend: 'dest-in' }])
        .png({ compressionLevel: 6 })
        .toBuffer();
      return { bytes, contentType: 'image/png' };
    }
  }
  const pipeline = opaque.flatten({ background: createPalette(spec.seed).background[0] });
  const bytes =
    spec.format === 'jpeg'
      ? await pipeline.jpeg({ quality: 86 }).toBuffer()
      : await pipeline.png({ compressionLevel: 6 }).toBuffer();
  return { bytes, contentType: spec.format === 'jpeg' ? 'image/jpeg' : 'image/png' };
}
