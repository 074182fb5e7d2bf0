import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { runFfmpegOrThrow, withTempDir } from './ffmpeg';
import { probeMedia } from './probe';
import { createRng } from './random';
import type { VideoSpec } from '../core/media-types';
import { renderVideo } from './video';

const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

const spec = (overrides: Partial<VideoSpec> = {}): VideoSpec => ({
  kind: 'video',
  seed: 'video-model|v1|waves at night',
  prompt: 'waves at night',
  width: 320,
  height: 180,
  seconds: 3,
  format: 'mp4',
  ...overrides,
});

/** A seed for each of the three motions, so all of them are exercised. */
function seedFor(motion: string): string {
  for (let i = 0; ; i++) {
    if (createRng(`seed-${i}`, 'video').pick(['drift', 'pan', 'life']) === motion) return `seed-${i}`;
  }
}

/** Mean absolute difference (0..255) between the first and the last frame: is anything moving? */
function motionAmount(video: Buffer): Promise<number> {
  return withTempDir(async (dir) => {
    const input = join(dir, 'in.mp4');
    await writeFile(input, video);
    const frames = join(dir, 'frames.rgb');
    await runFfmpegOrThrow(
      [
        '-loglevel',
        'error',
        '-i',
        input,
        '-vf',
        "select='eq(n,0)+eq(n,35)',scale=64:36",
        '-vsync',
        '0',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        frames,
      ],
      10_000,
    );
    const pixels = await readFile(frames);
    const half = pixels.length / 2;
    let sum = 0;
    for (let i = 0; i < half; i++) sum += Math.abs((pixels[i] ?? 0) - (pixels[half + i] ?? 0));
    return sum / half;
  });
}

describe('renderVideo', () => {
  it.each(['drift', 'pan', 'life'])(
    'makes a faststart H.264 MP4 of the asked size and length (%s)',
    async (motion) => {
      const out = await renderVideo(spec({ seed: seedFor(motion) }));
      expect(out.contentType).toBe('video/mp4');
      expect(out.bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
      // faststart: the index (moov) comes before the media data (mdat).
      expect(out.bytes.indexOf('moov')).toBeLessThan(out.bytes.indexOf('mdat'));
      const probe = await probeMedia(out.bytes, out.contentType);
      expect(probe.width).toBe(320);
      expect(probe.height).toBe(180);
      expect(Math.abs((probe.durationSec ?? 0) - 3)).toBeLessThanOrEqual(0.2);
      expect(probe.fps).toBe(12);
      expect(probe.frames).toBe(36);
      expect(await motionAmount(out.bytes)).toBeGreaterThan(3);
    },
  );

  it('makes a WebM of the asked size and length', async () => {
    const out = await renderVideo(spec({ format: 'webm', seconds: 2.5, width: 256, height: 256 }));
    expect(out.contentType).toBe('video/webm');
    expect(out.bytes.subarray(0, 4)).toEqual(EBML_MAGIC);
    const probe = await probeMedia(out.bytes, out.contentType);
    expect([probe.width, probe.height]).toEqual([256, 256]);
    expect(Math.abs((probe.durationSec ?? 0) - 2.5)).toBeLessThanOrEqual(0.2);
  });

  it('makes a full 720p clip of 10 s with a JPEG poster of the same aspect ratio', async () => {
    const out = await renderVideo(spec({ width: 1280, height: 720, seconds: 10 }));
    const probe = await probeMedia(out.bytes, out.contentType);
    expect(probe).toEqual({
      width: 1280,
      height: 720,
      fps: 12,
      durationSec: 10,
      frames: 120,
      streams: { audio: false, video: true },
    });
    expect(out.thumbnail?.contentType).toBe('image/jpeg');
    const poster = out.thumbnail?.bytes ?? Buffer.alloc(0);
    expect(poster.subarray(0, 3)).toEqual(JPEG_MAGIC);
    const meta = await sharp(poster).metadata();
    expect([meta.width, meta.height]).toEqual([640, 360]);
  });

  it('rounds odd sizes down to even ones, as H.264 requires', async () => {
    const out = await renderVideo(spec({ width: 201, height: 151, seconds: 1 }));
    const probe = await probeMedia(out.bytes, out.contentType);
    expect([probe.width, probe.height]).toEqual([200, 150]);
  });

  it('is the same for the same spec and differs by seed', async () => {
    const [a, again, b] = await Promise.all([
      renderVideo(spec({ seconds: 1 })),
      renderVideo(spec({ seconds: 1 })),
      renderVideo(spec({ seconds: 1, seed: 'other' })),
    ]);
    expect(again.bytes.equals(a.bytes)).toBe(true);
    expect(b.bytes.equals(a.bytes)).toBe(false);
    expect(a.thumbnail?.bytes.equals(b.thumbnail?.bytes ?? Buffer.alloc(0))).toBe(false);
  });

  it('animates a source image, whose colours show in the poster', async () => {
    const source = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#e01010' } })
      .png()
      .toBuffer();
    const out = await renderVideo(spec({ source, seconds: 2 }));
    const probe = await probeMedia(out.bytes, out.contentType);
    expect([probe.width, probe.height]).toEqual([320, 180]);
    const { channels } = await sharp(out.thumbnail?.bytes).stats();
    const [red, green, blue] = channels.map((channel) => channel.mean);
    expect(red).toBeGreaterThan(180);
    expect(green).toBeLessThan(60);
    expect(blue).toBeLessThan(60);
  });

  it('animates the first frame of a source video, and ignores a source that is not media', async () => {
    const red = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#e01010' } })
      .png()
      .toBuffer();
    const clip = await renderVideo(spec({ source: red, seconds: 1, format: 'webm' }));
    const out = await renderVideo(spec({ source: clip.bytes, seconds: 1 }));
    const { channels } = await sharp(out.thumbnail?.bytes).stats();
    expect(channels[0]?.mean).toBeGreaterThan(180);
    const fallback = await renderVideo(spec({ source: Buffer.from('not media'), seconds: 1 }));
    expect(fallback.bytes.equals((await renderVideo(spec({ seconds: 1 }))).bytes)).toBe(true);
  });
});
