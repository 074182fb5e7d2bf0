import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp from 'sharp';
import { expect } from 'vitest';
import { waitForTask, type ApiResponse, type Harness } from './harness';

// Media made for the HTTP tests (independent of the sandbox's own generators) and small API helpers.

const run = promisify(execFile);

// ---------------------------------------------------------------- images

/** An opaque image with a few coloured shapes, so it has content to describe, cut out or upscale. */
export async function makeImage(
  opts: { width?: number; height?: number; format?: 'png' | 'jpeg' | 'webp' | 'gif'; hue?: number } = {},
): Promise<Buffer> {
  const { width = 96, height = 64, format = 'png', hue = 210 } = opts;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${hue},60%,70%)"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="hsl(${(hue + 150) % 360},80%,40%)"/>
    <rect x="2" y="2" width="${width / 5}" height="${height / 5}" fill="#111"/>
  </svg>`;
  const img = sharp(Buffer.from(svg)).flatten({ background: '#ffffff' });
  switch (format) {
    case 'png':
      return img.png().toBuffer();
    case 'jpeg':
      return img.jpeg({ quality: 90 }).toBuffer();
    case 'webp':
      return img.webp().toBuffer();
    case 'gif':
      return img.gif().toBuffer();
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Inserts ASCII text into a file while keeping it a valid file of its format (PNG tEXt, JPEG COM, WAV chunk, MP4 free box). */
export function withMarker(bytes: Buffer, marker: string): Buffer {
  const text = Buffer.from(marker, 'latin1');
  const kind = sniff(bytes);
  if (kind === 'png') {
    const iend = bytes.length - 12;
    const data = Buffer.concat([Buffer.from('Comment\0', 'latin1'), text]);
    const typeAndData = Buffer.concat([Buffer.from('tEXt'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([bytes.subarray(0, iend), len, typeAndData, crc, bytes.subarray(iend)]);
  }
  if (kind === 'jpeg') {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(text.length + 2);
    return Buffer.concat([bytes.subarray(0, 2), Buffer.from([0xff, 0xfe]), len, text, bytes.subarray(2)]);
  }
  if (kind === 'wav') {
    const pad = text.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0);
    const head = Buffer.alloc(8);
    head.write('junk', 0, 'latin1');
    head.writeUInt32LE(text.length, 4);
    const out = Buffer.concat([bytes, head, text, pad]);
    out.writeUInt32LE(out.length - 8, 4);
    return out;
  }
  if (kind === 'mp4') {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + text.length, 0);
    head.write('free', 4, 'latin1');
    return Buffer.concat([bytes, head, text]);
  }
  return Buffer.concat([bytes, text]);
}

// ---------------------------------------------------------------- audio and video

/** A mono 16-bit PCM WAV of the given length: a sine tone. */
export function makeWav(seconds: number, freq = 440, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * freq * i) / sampleRate) * 12000), i * 2);
  }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const cache = new Map<string, Promise<Buffer>>();

async function ffmpeg(ext: string, args: string[]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-fixture-'));
  try {
    const out = join(dir, `out.${ext}`);
    await run(ffmpegInstaller.path, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const cached = (id: string, make: () => Promise<Buffer>) => {
  let p = cache.get(id);
  if (!p) {
    p = make();
    cache.set(id, p);
  }
  return p;
};

/** A small real video (test pattern, 10 fps, 160x120) of the given length, made with ffmpeg. */
export function makeVideo(seconds: number, format: 'mp4' | 'webm' | 'mov' = 'mp4'): Promise<Buffer> {
  const codec =
    format === 'webm'
      ? ['-c:v', 'libvpx', '-b:v', '200k']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  return cached(`video:${seconds}:${format}`, () =>
    ffmpeg(format, ['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=10:duration=${seconds}`, ...codec]),
  );
}

/** MP3, OGG or WebM (Opus) audio (sine tone) of the given length, made with ffmpeg. */
export function makeAudio(seconds: number, format: 'mp3' | 'ogg' | 'webm'): Promise<Buffer> {
  const codec =
    format === 'mp3'
      ? ['-c:a', 'libmp3lame']
      : format === 'ogg'
        ? ['-c:a', 'libvorbis']
        : ['-c:a', 'libopus', '-vn'];
  return cached(`audio:${seconds}:${format}`, () =>
    ffmpeg(format, ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...codec]),
  );
}

// ---------------------------------------------------------------- formats

export type Sniffed =
  'png' | 'jpeg' | 'gif' | 'webp' | 'mp4' | 'webm' | 'wav' | 'mp3' | 'ogg' | 'svg' | 'unknown';

/** The true format of a file from its magic bytes. */
export function sniff(b: Buffer): Sniffed {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WAVE')
    return 'wav';
  if (b.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (b.subarray(0, 4).toString('latin1') === 'OggS') return 'ogg';
  if (b.subarray(0, 3).toString('latin1') === 'ID3') return 'mp3';
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0) return 'mp3';
  const head = b.subarray(0, 512).toString('utf8').trimStart();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'svg';
  return 'unknown';
}

/** The MIME type(s) that truthfully name a sniffed format. */
export const MIME_OF: Record<Sniffed, string[]> = {
  png: ['image/png'],
  jpeg: ['image/jpeg'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  mp4: ['video/mp4'],
  webm: ['video/webm', 'audio/webm'],
  wav: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  mp3: ['audio/mpeg', 'audio/mp3'],
  ogg: ['audio/ogg', 'video/ogg'],
  svg: ['image/svg+xml'],
  unknown: [],
};

const mimeOf = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

// ---------------------------------------------------------------- API helpers

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
  contentType: string;
}

export async function download(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const r = await fetch(url, { headers });
  const bytes = Buffer.from(await r.arrayBuffer());
  return { status: r.status, headers: r.headers, bytes, contentType: mimeOf(r.headers.get('content-type')) };
}

export async function balance(h: Harness, key = 'personal'): Promise<number> {
  const me = await h.api('GET', '/me', { key });
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  return (me.body.user ?? me.body.team).creditBalance;
}

export async function spentToday(h: Harness, key = 'personal'): Promise<number> {
  const me = await h.api('GET', '/me', { key });
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  return me.body.key.creditsSpentToday;
}

export async function upload(
  h: Harness,
  bytes: Buffer,
  contentType: string,
  key = 'personal',
): Promise<ApiResponse> {
  return h.api('POST', '/uploads', {
    key,
    body: new Uint8Array(bytes),
    headers: { 'Content-Type': contentType },
  });
}

/** Uploads an image or audio file and returns its URL (expects 200 ready). */
export async function uploadReady(
  h: Harness,
  bytes: Buffer,
  contentType: string,
  key = 'personal',
): Promise<string> {
  const r = await upload(h, bytes, contentType, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.status).toBe('ready');
  return r.body.url as string;
}

/** Uploads a video, moves the clock past moderation and returns its ready URL. */
export async function uploadVideoReady(
  h: Harness,
  bytes: Buffer,
  key = 'personal',
  type = 'video/mp4',
): Promise<string> {
  const r = await upload(h, bytes, type, key);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  await advance(h, 1000);
  const poll = await h.api('GET', `/uploads/${r.body.uploadId}`, { key });
  expect(poll.status, JSON.stringify(poll.body)).toBe(200);
  expect(poll.body.status).toBe('ready');
  return poll.body.url as string;
}

export async function advance(h: Harness, ms: number): Promise<string> {
  const r = await h.control('POST', '/clock', { advanceMs: ms });
  expect(r.status).toBe(200);
  return r.body.now as string;
}

export async function submit(
  h: Harness,
  body: unknown,
  key = 'personal',
  headers: Record<string, string> = {},
) {
  return h.api('POST', '/tasks', { key, json: body, headers });
}

export async function quote(h: Harness, body: unknown, key = 'personal') {
  return h.api('POST', '/quote', { key, json: body });
}

/** Submits, expects 200, moves the clock until the task is terminal and returns the final status response. */
async function runTask(h: Harness, body: unknown, key = 'personal') {
  const r = await submit(h, body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return finish(h, r.body.taskId as string, key);
}

/** Moves the clock forward until the task is terminal (falls back to real-time polling). */
export async function finish(h: Harness, taskId: string, key = 'personal') {
  for (let i = 0; i < 40; i++) {
    const r = await h.api('GET', `/tasks/${taskId}`, { key });
    if (['succeeded', 'failed', 'cancelled'].includes(r.body?.status)) return r;
    await advance(h, 500);
  }
  return waitForTask(h, taskId, key);
}

/** Runs a task that must succeed and downloads its first output. */
export async function runOutput(h: Harness, body: unknown, key = 'personal') {
  const done = await runTask(h, body, key);
  expect(done.body.status, JSON.stringify(done.body)).toBe('succeeded');
  const url = done.body.outputs?.[0]?.url as string;
  expect(typeof url).toBe('string');
  const file = await download(url);
  expect(file.status, `GET ${url}`).toBe(200);
  return { task: done.body, url, file };
}

export const raw = (interfaceId: string, versionId: string, params: Record<string, unknown> = {}) => ({
  interfaceId,
  versionId,
  params,
});

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Decodes a whole media file with ffmpeg; returns its duration in seconds (throws when it does not decode). */
export async function decodeMedia(bytes: Buffer, ext: string): Promise<{ seconds: number; log: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-probe-'));
  try {
    const file = join(dir, `in.${ext}`);
    await writeFile(file, bytes);
    const { stderr } = await run(ffmpegInstaller.path, ['-hide_banner', '-i', file, '-f', 'null', '-']);
    const m = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
    // WebM from some muxers has no header duration: fall back to the last decoded timestamp.
    const times = [...stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
    const t = m ?? times.at(-1);
    const seconds = t ? Number(t[1]) * 3600 + Number(t[2]) * 60 + Number(t[3]) : NaN;
    return { seconds, log: stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Mean absolute difference of two images' pixels (0-255), both scaled to 32x32 RGB. */
export async function pixelDiff(a: Buffer, b: Buffer): Promise<number> {
  const px = (x: Buffer) => sharp(x).resize(32, 32, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [pa, pb] = await Promise.all([px(a), px(b)]);
  let sum = 0;
  for (let i = 0; i < pa.length; i++) sum += Math.abs(pa[i]! - pb[i]!);
  return sum / pa.length;
}
