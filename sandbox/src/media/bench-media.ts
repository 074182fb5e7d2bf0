// Times each kind of output at the largest typical sizes, against the sandbox's budget: under 1 s
// each on two cores, about 2 s for a 1080p video. The seeds are picked to take the slowest paths
// ('bench-8' and 'bench-17' draw the orbs composition, whose large radial gradients are librsvg's
// most expensive shapes, and the drifting-orbs video motion, the costliest to encode).
// `npx tsx sandbox/src/media/bench-media.ts` prints one line per kind; the sandbox benchmark
// imports benchMedia().
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderLogo } from './asset';
import { probeMedia } from './probe';
import { renderMedia } from './render';
import type { MediaSpec } from '../core/media-types';

const prompt = 'a lighthouse on a cliff at dusk, volumetric light';

function cases(source: Buffer): Array<{ kind: string; spec: MediaSpec }> {
  const image = { kind: 'image', prompt, format: 'png' } as const;
  const video = { kind: 'video', prompt, seconds: 10 } as const;
  const audio = { kind: 'audio', prompt, seconds: 30 } as const;
  return [
    { kind: 'image png 2048x2048', spec: { ...image, seed: 'bench-8', width: 2048, height: 2048 } },
    {
      kind: 'image jpeg 2048x1152',
      spec: { ...image, seed: 'bench-17', width: 2048, height: 1152, format: 'jpeg' },
    },
    { kind: 'image edit 1024x1024', spec: { ...image, seed: 'bench-8', width: 1024, height: 1024, source } },
    {
      kind: 'image cutout 2048x2048',
      spec: { ...image, seed: 'bench-8', width: 2048, height: 2048, transparent: true },
    },
    { kind: 'svg 1024x1024', spec: { kind: 'svg', seed: 'bench-8', prompt, width: 1024, height: 1024 } },
    {
      kind: 'video mp4 1280x720 10s',
      spec: { ...video, seed: 'bench-8', width: 1280, height: 720, format: 'mp4' },
    },
    {
      kind: 'video webm 1280x720 10s',
      spec: { ...video, seed: 'bench-17', width: 1280, height: 720, format: 'webm' },
    },
    {
      kind: 'video mp4 from image 1280x720 10s',
      spec: { ...video, seed: 'bench-8', width: 1280, height: 720, format: 'mp4', source },
    },
    {
      kind: 'video mp4 1920x1080 10s',
      spec: { ...video, seed: 'bench-8', width: 1920, height: 1080, format: 'mp4' },
    },
    {
      kind: 'video webm 1920x1080 10s',
      spec: { ...video, seed: 'bench-17', width: 1920, height: 1080, format: 'webm' },
    },
    { kind: 'audio wav music 30s', spec: { ...audio, seed: 'bench-8', style: 'music', format: 'wav' } },
    { kind: 'audio mp3 speech 30s', spec: { ...audio, seed: 'bench-8', style: 'speech', format: 'mp3' } },
    { kind: 'audio ogg sfx 30s', spec: { ...audio, seed: 'bench-8', style: 'sfx', format: 'ogg' } },
  ];
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

export async function benchMedia(): Promise<Array<{ kind: string; ms: number }>> {
  const results: Array<{ kind: string; ms: number }> = [];
  // A photo-sized upload to start from: the seed's own art, as a 1600x1200 JPEG.
  const { bytes: source } = await renderMedia({
    kind: 'image',
    seed: 'bench-source',
    prompt,
    width: 1600,
    height: 1200,
    format: 'jpeg',
  });
  let video: Buffer | undefined;
  for (const { kind, spec } of cases(source)) {
    const { value, ms } = await timed(() => renderMedia(spec));
    results.push({ kind, ms });
    if (spec.kind === 'video') video ??= value.bytes;
  }
  if (video) {
    const upload = video;
    results.push({ kind: 'probe mp4', ms: (await timed(() => probeMedia(upload, 'video/mp4'))).ms });
  }
  results.push({ kind: 'logo 128x128', ms: (await timed(() => renderLogo('bench-brand', 'Bench Labs'))).ms });
  return results;
}

const entry = process.argv[1];
if (entry && realpathSync(entry) === fileURLToPath(import.meta.url)) {
  for (const { kind, ms } of await benchMedia())
    console.log(`${kind.padEnd(36)} ${String(ms).padStart(6)} ms`);
}
