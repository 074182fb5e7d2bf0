// The media port of sandbox/src/core (core/media-works.ts), made of the generators and probes here.
import sharp from 'sharp';
import type { MediaWorks } from '../core/media-works';
import { renderLogo } from './asset';
import { sampleImage } from './image-sample';
import { renderMedia } from './render';
import { verifyUpload } from './verify';

// No libvips operation cache (sharp's default keeps up to 50 MB of results, 100 operations): it pays
// off when the same operation runs again on the same input, and the sandbox renders each output once and
// keeps its bytes in its own bounded media cache (core/media-store.ts). Left on, it is up to 50 MB of
// native memory the sandbox's resident size carries for nothing, which no JavaScript measure shows.
sharp.cache(false);

export const mediaWorks: MediaWorks = {
  render: renderMedia,
  renderLogo,
  verifyUpload,
  async inspectSource(bytes, { opacity }) {
    const image = sharp(bytes);
    const [meta, stats] = await Promise.all([image.metadata(), opacity ? image.stats() : undefined]);
    return { width: meta.width, height: meta.height, ...(stats ? { opaque: stats.isOpaque } : {}) };
  },
  sampleImage,
};
