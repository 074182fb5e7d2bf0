// Video outputs: MP4 (H.264) or WebM (VP8) with a JPEG poster, encoded by ffmpeg in one run.
// The seed chooses one of three motions: glowing orbs drifting over the seed's art, a slow camera
// pan across it, or a Game of Life in the seed's palette. A source (an image, or a video's first
// frame) is panned instead.
// Everything is tuned for speed on two cores: stills are rasterised once by sharp and looped inside
// ffmpeg (decoding a PNG per frame costs more than encoding it), 12 fps, x264 ultrafast, and VP8
// realtime with static-block skipping.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { artSvg } from './art';
import { runFfmpeg, runFfmpegOrThrow, withTempDir } from './ffmpeg';
import { decodeSource, type DecodedImage } from './image';
import { createPalette, type Palette } from './palette';
import { createRng, type Rng } from './random';
import type { RenderedMedia, VideoSpec } from '../core/media-types';

const FPS = 12;
const POSTER_MAX_SIDE = 640;
/** How much larger than the frame a panned still is. */
const PAN_SCALE = 1.25;
const TIMEOUT_MS = 120_000;

/** H.264 in yuv420p needs even dimensions. */
const even = (value: number): number => Math.max(2, Math.floor(value / 2) * 2);
const hex = (color: string): string => `0x${color.slice(1)}`;
const num = (value: number): string => value.toFixed(3);
/** Splits a command-line fragment free of quoted spaces into arguments. */
const args = (line: string): string[] => line.split(' ');

interface Frame {
  width: number;
  height: number;
  /** Number of frames, and their duration (count / FPS). */
  count: number;
  seconds: number;
}

/** ffmpeg inputs and a filter graph ending in the label [v]. */
interface Plan {
  inputs: string[];
  filter: string;
}

/** A still written as raw RGB for ffmpeg, looped into `count` frames at FPS. */
async function stillInput(dir: string, name: string, image: Sharp, background: string): Promise<string[]> {
  const { data, info } = await image.flatten({ background }).raw().toBuffer({ resolveWithObject: true });
  const path = join(dir, `${name}.rgb`);
  await writeFile(path, data);
  const size = `${info.width}x${info.height}`;
  return [...args(`-f rawvideo -pixel_format rgb24 -video_size ${size} -framerate ${FPS} -i`), path];
}

const loop = (count: number): string => `loop=loop=${count - 1}:size=1,setpts=N/(${FPS}*TB)`;

/** Ken Burns pan across a still larger than the frame, eased from one edge or corner to the opposite. */
function panFilter(frame: Frame, rng: Rng): string {
  // Start and end of the crop window, as fractions of the free room: diagonals, across, down.
  const paths = [
    [0, 0, 1, 1],
    [1, 0, 0, 1],
    [0, 0.5, 1, 0.5],
    [0.5, 0, 0.5, 1],
  ] as const;
  const [x0, y0, x1, y1] = rng.pick(paths);
  const [fromX, fromY, toX, toY] = rng.chance(0.5) ? [x0, y0, x1, y1] : [x1, y1, x0, y0];
  const span = Math.max(frame.seconds - 1 / FPS, 1 / FPS);
  const progress = `(1-cos(PI*min(t/${num(span)},1)))/2`;
  return (
    `[0:v]format=yuv420p,${loop(frame.count)},` +
    `crop=${frame.width}:${frame.height}:` +
    `x='(iw-ow)*(${fromX}+${toX - fromX}*${progress})':` +
    `y='(ih-oh)*(${fromY}+${toY - fromY}*${progress})'[v]`
  );
}

/** Soft orbs in the palette's colours drifting on Lissajous paths over the still at input 0. */
async function driftPlan(dir: string, frame: Frame, rng: Rng, palette: Palette): Promise<Plan> {
  const inputs: string[] = [];
  const sprites: Promise<unknown>[] = [];
  const chains = [`[0:v]format=yuv420p,${loop(frame.count)}[b0]`];
  const colors = [palette.accent, palette.colors[0], palette.colors[2]];
  const min = Math.min(frame.width, frame.height);
  for (const [i, color] of colors.entries()) {
    const size = even(min * rng.range(0.3, 0.45));
    const orb =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><defs><radialGradient id="o">` +
      `<stop offset="0" stop-color="${color}" stop-opacity="0.9"/><stop offset="0.5" stop-color="${color}" stop-opacity="0.45"/>` +
      `<stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient></defs>` +
      `<circle cx="${size / 2}" cy="${size / 2}" r="${size / 2}" fill="url(#o)"/></svg>`;
    const path = join(dir, `orb${i}.png`);
    sprites.push(sharp(Buffer.from(orb)).png().toFile(path));
    inputs.push('-i', path);
    const axis = (extent: number, wave: 'sin' | 'cos'): string =>
      `${num(extent * rng.range(0.3, 0.7) - size / 2)}+${num(extent * rng.range(0.2, 0.35))}*${wave}(${num(rng.range(0.5, 1.1))}*t+${num(rng.range(0, 6.28))})`;
    chains.push(`[${i + 1}:v]format=yuva420p,${loop(frame.count)}[o${i}]`);
    chains.push(
      `[b${i}][o${i}]overlay=x='${axis(frame.width, 'sin')}':y='${axis(frame.height, 'cos')}':format=yuv420` +
        (i === colors.length - 1 ? '[v]' : `[b${i + 1}]`),
    );
  }
  await Promise.all(sprites);
  return { inputs, filter: chains.join(';') };
}

/**
 * Conway-like automata (a few rule sets) in the palette's colours; dead cells fade to the background
 * (ffmpeg's "mold"), leaving trails. Cells are multiples of 8 px so that their edges fall on codec
 * block boundaries: that halves the encoding time.
 */
function lifeFilter(frame: Frame, rng: Rng, palette: Palette): string {
  const cell = 8 * Math.max(1, Math.round((rng.int(2, 4) * Math.min(frame.width, frame.height)) / 720));
  const cols = Math.ceil(frame.width / cell);
  const rows = Math.ceil(frame.height / cell);
  const rule = rng.pick(['B3/S23', 'B36/S23', 'B3678/S34678', 'B368/S245']);
  return (
    `life=s=${cols}x${rows}:r=${FPS}:rule=${rule}:seed=${rng.int(0, 2 ** 31 - 1)}:ratio=${num(rng.range(0.2, 0.45))}:` +
    `mold=${rng.int(8, 24)}:life_color=${hex(palette.accent)}:death_color=${hex(palette.colors[1])}:` +
    `mold_color=${hex(palette.background[0])},scale=iw*${cell}:ih*${cell}:flags=neighbor,` +
    `crop=${frame.width}:${frame.height}:0:0,format=yuv420p[v]`
  );
}

function encoderArgs(format: VideoSpec['format'], frame: Frame): string[] {
  if (format === 'mp4') {
    // Constrained Baseline (ultrafast) in yuv420p with the index up front: Chromium streams it at once.
    return args(`-c:v libx264 -preset ultrafast -crf 30 -g ${2 * FPS} -pix_fmt yuv420p -movflags +faststart`);
  }
  const kbps = Math.max(200, Math.round((frame.width * frame.height) / 1000));
  // VP8 realtime at its fastest; static-thresh skips unchanged blocks, which our stills are full of.
  return args(
    `-c:v libvpx -deadline realtime -cpu-used 16 -b:v ${kbps}k -g ${2 * FPS} -threads 2 -static-thresh 1000 -lag-in-frames 0`,
  );
}

/** The source as a still: the image itself, or the first frame of a video (lipsync, extend). */
async function sourceStill(source: Buffer, width: number, height: number): Promise<DecodedImage | null> {
  const image = await decodeSource(source, width, height);
  if (image) return image;
  return withTempDir(async (dir) => {
    const input = join(dir, 'source');
    const first = join(dir, 'first.png');
    await writeFile(input, source);
    const { code } = await runFfmpeg(
      ['-loglevel', 'error', '-i', input, '-frames:v', '1', first],
      TIMEOUT_MS,
    );
    return code === 0 ? decodeSource(await readFile(first), width, height) : null;
  });
}

export async function renderVideo(spec: VideoSpec): Promise<RenderedMedia> {
  const count = Math.max(1, Math.round(spec.seconds * FPS));
  const frame: Frame = { width: even(spec.width), height: even(spec.height), count, seconds: count / FPS };
  const rng = createRng(spec.seed, 'video');
  const palette = createPalette(spec.seed);
  const panWidth = even(frame.width * PAN_SCALE);
  const panHeight = even(frame.height * PAN_SCALE);
  const source = spec.source ? await sourceStill(spec.source, panWidth, panHeight) : null;
  const motion = source ? 'pan' : rng.pick(['drift', 'pan', 'life'] as const);
  const scale = Math.min(1, POSTER_MAX_SIDE / Math.max(frame.width, frame.height));

  return withTempDir(async (dir) => {
    let plan: Plan;
    if (motion === 'life') {
      plan = { inputs: [], filter: lifeFilter(frame, rng, palette) };
    } else if (motion === 'drift') {
      const art = sharp(Buffer.from(artSvg(spec.seed, frame.width, frame.height)));
      const [still, orbs] = await Promise.all([
        stillInput(dir, 'still', art, palette.background[0]),
        driftPlan(dir, frame, rng, palette),
      ]);
      plan = { inputs: [...still, ...orbs.inputs], filter: orbs.filter };
    } else {
      const image = source
        ? sharp(source.data, { raw: source.info })
        : sharp(Buffer.from(artSvg(spec.seed, panWidth, panHeight)));
      plan = {
        inputs: await stillInput(dir, 'still', image, palette.background[0]),
        filter: panFilter(frame, rng),
      };
    }

    const output = join(dir, `video.${spec.format}`);
    const poster = join(dir, 'poster.jpg');
    const filter =
      `${plan.filter};[v]split[main][first];` +
      `[first]trim=end_frame=1,scale=${even(frame.width * scale)}:${even(frame.height * scale)},format=yuvj420p[poster]`;
    await runFfmpegOrThrow(
      [
        ...['-loglevel', 'error', ...plan.inputs, '-filter_complex', filter],
        ...['-map', '[main]', '-frames:v', `${count}`, '-r', `${FPS}`, ...encoderArgs(spec.format, frame)],
        ...['-an', '-fflags', '+bitexact', output],
        ...['-map', '[poster]', '-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '3', '-update', '1', poster],
      ],
      TIMEOUT_MS,
    );
    const [bytes, thumbnail] = await Promise.all([readFile(output), readFile(poster)]);
    return {
      bytes,
      contentType: spec.format === 'mp4' ? 'video/mp4' : 'video/webm',
      thumbnail: { bytes: thumbnail, contentType: 'image/jpeg' },
    };
  });
}
