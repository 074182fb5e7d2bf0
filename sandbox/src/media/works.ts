// The media port of sandbox/src/core (core/media-works.ts), made of the generators and probes here.
import sharp from 'sharp';
import type { MediaWorks } from '../core/media-works';
import { renderLogo } from './asset';
import { sampleImage } from './image-sample';
import { renderMedia } from './render';
import { verifyUpload } from './verify';

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
