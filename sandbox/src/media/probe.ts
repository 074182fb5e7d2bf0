// What the sandbox learns of an uploaded file, for pricing by input duration or frames. Images are
// read by sharp; audio and video by `ffmpeg -i` (no ffprobe ships with @ffmpeg-installer), whose
// log names the duration, the frame size and the frame rate. Uploads are arbitrary bytes, so this
// never throws: anything unreadable yields an empty probe.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { runFfmpeg, withTempDir } from './ffmpeg';
import type { MediaProbe } from '../core/media-types';

const TIMEOUT_MS = 15_000;

async function probeImage(bytes: Buffer | string): Promise<MediaProbe> {
  const metadata = await sharp(bytes, { failOn: 'none' }).metadata();
  // autoOrient gives the size as displayed (EXIF rotation applied).
  const { width, height } = metadata.autoOrient;
  return width > 0 && height > 0 ? { width, height } : {};
}

const seconds = (h: string | undefined, m: string | undefined, s: string | undefined): number =>
  Number(h) * 3600 + Number(m) * 60 + Number(s);

/**
 * Parses the input section of ffmpeg's log, e.g. `Duration: 00:00:10.00` and
 * `Stream #0:0: Video: h264 ..., 1280x720 [SAR 1:1 DAR 16:9], ..., 12 fps, ...`. Cover art in an
 * audio file also shows as a video stream, marked `(attached pic)`, and is skipped.
 * @internal
 */
export function parseFfmpegLog(log: string): MediaProbe {
  const probe: MediaProbe = {};
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(log);
  if (duration) probe.durationSec = seconds(duration[1], duration[2], duration[3]);
  const video = log
    .split('\n')
    .find((line) => /Stream #.*: Video: /.test(line) && !line.includes('(attached pic)'));
  if (video) {
    const size = /, (\d{1,5})x(\d{1,5})\b/.exec(video);
    if (size) {
      probe.width = Number(size[1]);
      probe.height = Number(size[2]);
    }
    const fps = /, (\d+(?:\.\d+)?)(k?) fps/.exec(video);
    if (fps) probe.fps = Number(fps[1]) * (fps[2] === 'k' ? 1000 : 1);
  }
  return probe;
}

/** The time reached by copying every stream to nowhere: the duration of files whose header lacks one (MediaRecorder WebM). */
async function measureDuration(path: string): Promise<number | undefined> {
  const { log } = await runFfmpeg(['-i', path, '-map', '0', '-c', 'copy', '-f', 'null', '-'], TIMEOUT_MS);
  const last = [...log.matchAll(/time=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)].at(-1);
  return last ? seconds(last[1], last[2], last[3]) : undefined;
}

/** The kinds of stream ffmpeg found in its log (cover art is not a video). */
function streamKinds(log: string): { audio: boolean; video: boolean } {
  const lines = log.split('\n').filter((line) => /Stream #/.test(line));
  return {
    audio: lines.some((line) => /: Audio: /.test(line)),
    video: lines.some((line) => /: Video: /.test(line) && !line.includes('(attached pic)')),
  };
}

async function probeWithFfmpeg(bytes: Buffer, withVideo: boolean): Promise<MediaProbe> {
  return withTempDir(async (dir) => {
    const path = join(dir, 'upload');
    await writeFile(path, bytes);
    return probeFileWithFfmpeg(path, withVideo);
  });
}

async function probeFileWithFfmpeg(path: string, withVideo: boolean): Promise<MediaProbe> {
  // ffmpeg exits non-zero here (no output file is given); the log is all that is wanted.
  const { log } = await runFfmpeg(['-i', path], TIMEOUT_MS);
  if (!/Stream #/.test(log)) return {};
  const streams = streamKinds(log);
  const { durationSec: headerDuration, ...video } = parseFfmpegLog(log);
  const durationSec = headerDuration ?? (await measureDuration(path));
  const probe: MediaProbe = { ...(withVideo ? video : {}), streams };
  if (durationSec !== undefined) {
    probe.durationSec = durationSec;
    if (probe.fps) probe.frames = Math.round(durationSec * probe.fps);
  }
  return probe;
}

export async function probeMedia(bytes: Buffer, contentType: string): Promise<MediaProbe> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  try {
    if (type.startsWith('image/')) return await probeImage(bytes);
    if (type.startsWith('audio/')) return await probeWithFfmpeg(bytes, false);
    if (type.startsWith('video/')) return await probeWithFfmpeg(bytes, true);
  } catch {
    // Unreadable upload: fall through to the empty probe.
  }
  return {};
}

/** probeMedia of a file on disk (an upload as received), read by sharp or ffmpeg from there. */
export async function probeMediaFile(path: string, contentType: string): Promise<MediaProbe> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  try {
    if (type.startsWith('image/')) return await probeImage(path);
    if (type.startsWith('audio/')) return await probeFileWithFfmpeg(path, false);
    if (type.startsWith('video/')) return await probeFileWithFfmpeg(path, true);
  } catch {
    // Unreadable upload: fall through to the empty probe.
  }
  return {};
}
