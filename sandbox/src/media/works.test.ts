import sharp from 'sharp';
import { expect, it } from 'vitest';
import { mediaWorks } from './works';

it('renders and checks images without leaving anything in libvips’ operation cache', async () => {
  const image = await mediaWorks.render({
    kind: 'image',
    seed: 'vips cache',
    prompt: 'vips cache',
    width: 256,
    height: 256,
    format: 'png',
  });
  await mediaWorks.inspectSource(image.bytes, { opacity: true });
  await mediaWorks.sampleImage(image.bytes, 64);
  const cache = sharp.cache();
  expect(cache.items.current).toBe(0);
  expect(cache.memory.current).toBe(0);
});
