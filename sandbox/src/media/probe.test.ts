import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseFfmpegLog, probeMedia } from './probe';

describe('parseFfmpegLog', () => {
  it('reads duration, size and frame rate of the first real video stream', () => {
    const log = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'upload':",
      '  Duration: 00:01:02.50, start: 0.000000, bitrate: 1030 kb/s',
      '    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080 [SAR 1:1 DAR 16:9], 1000 kb/s, 29.97 fps, 29.97 tbr, 30k tbn, 59.94 tbc (default)',
      '    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 128 kb/s (default)',
    ].join('\n');
    expect(parseFfmpegLog(log)).toEqual({ durationSec: 62.5, width: 1920, height: 1080, fps: 29.97 });
  });

  it('ignores cover art and missing durations', () => {
    const log = [
      '  Duration: N/A, start: 0.000000, bitrate: N/A',
      '    Stream #0:0: Audio: mp3, 44100 Hz, stereo, fltp, 192 kb/s',
      '    Stream #0:1: Video: mjpeg, yuvj420p(pc, bt470bg/unknown/unknown), 500x500 [SAR 1:1 DAR 1:1], 90k tbr, 90k tbn, 90k tbc (attached pic)',
    ].join('\n');
    expect(parseFfmpegLog(log)).toEqual({});
  });
});

describe('probeMedia', () => {
  it('reads image sizes with sharp, whatever the Content-Type parameters', async () => {
    const png = await sharp({ create: { width: 37, height: 21, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    expect(await probeMedia(png, 'image/png')).toEqual({ width: 37, height: 21 });
    const jpeg = await sharp(png).jpeg().toBuffer();
    expect(await probeMedia(jpeg, 'IMAGE/JPEG; charset=binary')).toEqual({ width: 37, height: 21 });
  });

  it('reports the displayed size of a rotated JPEG', async () => {
    const rotated = await sharp({ create: { width: 40, height: 10, channels: 3, background: '#000' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await probeMedia(rotated, 'image/jpeg')).toEqual({ width: 10, height: 40 });
  });

  it('never throws on garbage: it answers {}', async () => {
    const garbage = Buffer.from('SANDBOX-BLOCK this is not media at all');
    for (const type of [
      'image/png',
      'image/webp',
      'video/mp4',
      'video/webm',
      'video/quicktime',
      'audio/mpeg',
      'audio/wav',
      'application/pdf',
      '',
    ]) {
      expect(await probeMedia(garbage, type)).toEqual({});
      expect(await probeMedia(Buffer.alloc(0), type)).toEqual({});
    }
  });
});
