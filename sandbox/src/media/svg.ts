// SVG outputs (image-svg models): the seed's generative art as a standalone document. Browsers
// render it inline from the CDN, so it must be inert: no script, no event handlers, no external
// references, and the prompt only as escaped text in <title> (see artSvg).
import { artSvg } from './art';
import type { RenderedMedia, SvgSpec } from './types';

export function renderSvg(spec: SvgSpec): RenderedMedia {
  const width = Math.max(1, Math.round(spec.width));
  const height = Math.max(1, Math.round(spec.height));
  const document = `<?xml version="1.0" encoding="UTF-8"?>\n${artSvg(spec.seed, width, height, spec.prompt)}\n`;
  return { bytes: Buffer.from(document, 'utf8'), contentType: 'image/svg+xml' };
}
