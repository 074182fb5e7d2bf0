// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-types';
import { concatBytes } from './embed';
import { embedRecipe, readRecipe, streamWithRecipe, type EmbedOutcome } from './file-recipe';
import { parametersText, recipeOf, STUDIO, type Recipe } from './recipe';

// WebP, MP3, WAV and MP4/MOV files made by Debian's FFmpeg (and Pillow, for WebP) go through the writers
// whole and as a stream in odd-sized pieces, and are read back by readers that share no code with ours:
// exiftool, ffprobe and Pillow. The media is decoded (or its packets hashed) before and after and must be
// the same: the writers never encode anything again. A missing tool fails the test (execFileSync throws).

const dir = mkdtempSync(join(tmpdir(), 'media-recipes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Debian's python3 has Pillow; a python3 earlier on PATH (pyenv, a venv) may not.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const entry: HistoryEntry = {
  taskId: 'task_Media123',
  connectionId: 'conn_1',
  request: {
    interfaceId: 'sonic-wave',
    versionId: 'v3',
    params: {
      prompt: 'A kettle\'s "whistle" & <steam>\nsecond line, ünïcødé 茶壺',
      negative_prompt: 'hiss',
      seed: 42,
      steps: 20,
    },
  },
  meta: {
    title: 'Sonic Wave v3',
    subtitle: '',
    kind: 'model',
    mediaType: 'audio',
    modelId: 'sonic-wave',
    versionId: 'v3',
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status: 'succeeded',
  outputs: [{ url: 'http://127.0.0.1:4010/cdn/outputs/task_Media123/0.mp3' }] as HistoryEntry['outputs'],
  error: null,
  creditsCharged: 4,
  createdAt: Date.UTC(2026, 10, 28, 12, 0, 0),
  completedAt: null,
  unseen: false,
};
const recipe = recipeOf(entry, 0);
const other = recipeOf(
  { ...entry, request: { ...entry.request, params: { prompt: 'a second take', seed: 7 } } },
  1,
);

const run = (program: string, args: string[]): string =>
  execFileSync(program, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** A file FFmpeg makes from its lavfi sources, as bytes. */
function ffmpeg(name: string, ...args: string[]): Uint8Array {
  const path = join(dir, name);
  run('ffmpeg', ['-v', 'error', '-y', ...args, path]);
  return new Uint8Array(readFileSync(path));
}

/** The MD5 of every stream's packets as FFmpeg demuxes them (copied, not decoded): the media's own bytes. */
const packetsMd5 = (path: string): string =>
  run('ffmpeg', ['-v', 'error', '-i', path, '-map', '0', '-c', 'copy', '-f', 'md5', '-']).trim();

/** The MD5 of the decoded audio or video. */
const decodedMd5 = (path: string): string =>
  run('ffmpeg', ['-v', 'error', '-i', path, '-map', '0', '-f', 'md5', '-']).trim();

function ffprobeTags(path: string): Record<string, string> {
  const out = JSON.parse(run('ffprobe', ['-v', 'error', '-show_format', '-of', 'json', path])) as {
    format: { tags?: Record<string, string> };
  };
  return out.format.tags ?? {};
}

function exiftool(path: string, ...args: string[]): Record<string, unknown> {
  return (
    (JSON.parse(run('exiftool', ['-j', '-struct', ...args, path])) as Array<Record<string, unknown>>)[0] ?? {}
  );
}

/** The file fed in pieces of `size` bytes through the stream writer. */
async function throughStream(bytes: Uint8Array, type: string, size: number, r: Recipe = recipe) {
  let outcome: EmbedOutcome | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });
  const chunks: Uint8Array[] = [];
  const reader = streamWithRecipe(body, type, r, (o) => (outcome = o)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { bytes: concatBytes(chunks), outcome };
}

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

/** The file through embedRecipe and through the stream in 7-byte and 1-byte pieces: one outcome, one result. */
async function written(before: Uint8Array, type: string, r: Recipe = recipe): Promise<Uint8Array> {
  const whole = embedRecipe(before, type, r);
  expect(whole.outcome).toBe('written');
  for (const size of [7, 1, 4096]) {
    const streamed = await throughStream(before, type, size, r);
    expect(streamed.outcome).toBe('written');
    expect(same(streamed.bytes, whole.bytes)).toBe(true);
  }
  return whole.bytes;
}

/** A file the writer must keep byte for byte, whole and streamed, with this outcome. */
async function kept(before: Uint8Array, type: string, outcome: EmbedOutcome): Promise<void> {
  const whole = embedRecipe(before, type, recipe);
  expect(whole.outcome).toBe(outcome);
  expect(same(whole.bytes, before)).toBe(true);
  const streamed = await throughStream(before, type, 7);
  expect(streamed.outcome).toBe(outcome);
  expect(same(streamed.bytes, before)).toBe(true);
}

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (ch) => ch.charCodeAt(0));
const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

/** A RIFF file's chunks (id, data offset, data size), read here apart from the writers' own walk. */
function riff(bytes: Uint8Array): Array<{ id: string; at: number; size: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint32(4, true)).toBe(bytes.length - 8);
  const chunks: Array<{ id: string; at: number; size: number }> = [];
  for (let at = 12; at < bytes.length;) {
    const size = view.getUint32(at + 4, true);
    chunks.push({ id: latin1(bytes.subarray(at, at + 4)), at: at + 8, size });
    at += 8 + size + (size & 1);
  }
  return chunks;
}

const riffChunk = (id: string, data: Uint8Array): Uint8Array => {
  const out = new Uint8Array(8 + data.length + (data.length & 1));
  out.set(ascii(id));
  new DataView(out.buffer).setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
};

/** A RIFF file with one more chunk at its end and its size fixed. */
function withChunk(bytes: Uint8Array, chunk: Uint8Array): Uint8Array {
  const out = concatBytes([bytes, chunk]);
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  return out;
}

describe('WebP', () => {
  /** A 48x32 WebP from Pillow: `save` is the keyword arguments of Image.save. */
  function pillowWebp(name: string, mode: 'RGB' | 'RGBA', save: string): Uint8Array {
    const path = join(dir, name);
    run(PYTHON, [
      '-c',
      'import sys; from PIL import Image\n' +
        "im=Image.new('RGBA',(48,32)); im.putdata([(i*37%256,i*11%256,i*5%256,(i*3)%256) for i in range(48*32)])\n" +
        `im.convert('${mode}').save(sys.argv[1], ${save})`,
      path,
    ]);
    return new Uint8Array(readFileSync(path));
  }

  /** What Pillow decodes: the format, mode, size and the pixels' bytes, in base64. */
  const pillowPixels = (bytes: Uint8Array, name: string): string =>
    run(PYTHON, [
      '-c',
      'import sys,base64; from PIL import Image; im=Image.open(sys.argv[1]); im.load()\n' +
        'print(im.format, im.mode, im.size, base64.b64encode(im.tobytes()).decode())',
      save(name, bytes),
    ]);

  function checkXmp(path: string, r: Recipe = recipe): void {
    const tags = exiftool(path, '-XMP:all', '-validate', '-warning');
    expect(JSON.parse(String(tags.Recipe))).toEqual(r);
    expect(tags.Parameters).toBe(parametersText(r));
    expect(tags.Warning).toBeUndefined();
  }

  it('makes a simple lossy WebP (VP8) extended: a VP8X with the XMP flag and the canvas size, the VP8 chunk byte for byte, the XMP read by exiftool, the pixels Pillow decodes unchanged', async () => {
    const before = pillowWebp('lossy.webp', 'RGB', 'quality=90');
    expect(riff(before).map((c) => c.id)).toEqual(['VP8 ']);
    const bytes = await written(before, 'image/webp');
    const chunks = riff(bytes);
    expect(chunks.map((c) => c.id)).toEqual(['VP8X', 'VP8 ', 'XMP ']);
    const vp8x = bytes.subarray(chunks[0]!.at, chunks[0]!.at + 10);
    expect(vp8x[0]).toBe(0x04);
    const view = new DataView(vp8x.buffer, vp8x.byteOffset);
    expect((view.getUint32(4, true) & 0xffffff) + 1).toBe(48);
    expect((view.getUint32(6, true) >>> 8) + 1).toBe(32);
    expect(same(bytes.subarray(chunks[0]!.at + 10, chunks[2]!.at - 8), before.subarray(12))).toBe(true);
    const path = save('lossy-out.webp', bytes);
    checkXmp(path);
    expect(exiftool(path, '-RIFF:ImageWidth', '-RIFF:ImageHeight')).toMatchObject({
      ImageWidth: 48,
      ImageHeight: 32,
    });
    const pixels = pillowPixels(bytes, 'lossy-pil.webp');
    expect(pixels.startsWith('WEBP RGB (48, 32) ')).toBe(true);
    expect(pixels).toBe(pillowPixels(before, 'lossy-before.webp'));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
  });

  it("sets VP8X's alpha flag for a lossless WebP (VP8L) that uses alpha, so Pillow still decodes RGBA", async () => {
    const before = pillowWebp('lossless.webp', 'RGBA', 'lossless=True');
    expect(riff(before).map((c) => c.id)).toEqual(['VP8L']);
    const bytes = await written(before, 'image/webp');
    const chunks = riff(bytes);
    expect(chunks.map((c) => c.id)).toEqual(['VP8X', 'VP8L', 'XMP ']);
    expect(bytes[chunks[0]!.at]).toBe(0x14);
    const pixels = pillowPixels(bytes, 'lossless-pil.webp');
    expect(pixels.startsWith('WEBP RGBA (48, 32) ')).toBe(true);
    expect(pixels).toBe(pillowPixels(before, 'lossless-before.webp'));
    checkXmp(save('lossless-out.webp', bytes));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
  });

  it('sets the XMP flag in the VP8X an extended WebP (lossy with ALPH) has, and a second recipe replaces the XMP chunk', async () => {
    const before = pillowWebp('alpha.webp', 'RGBA', 'quality=90');
    const original = riff(before);
    expect(original.map((c) => c.id)).toEqual(['VP8X', 'ALPH', 'VP8 ']);
    const bytes = await written(before, 'image/webp');
    const chunks = riff(bytes);
    expect(chunks.map((c) => c.id)).toEqual(['VP8X', 'ALPH', 'VP8 ', 'XMP ']);
    expect(bytes[chunks[0]!.at]).toBe((before[original[0]!.at] as number) | 0x04);
    // Everything after the VP8X's flags byte up to the new chunk is as it was.
    expect(same(bytes.subarray(21, chunks[3]!.at - 8), before.subarray(21))).toBe(true);
    expect(pillowPixels(bytes, 'alpha-pil.webp')).toBe(pillowPixels(before, 'alpha-before.webp'));

    const again = await written(bytes, 'image/webp', other);
    expect(riff(again).map((c) => c.id)).toEqual(['VP8X', 'ALPH', 'VP8 ', 'XMP ']);
    checkXmp(save('alpha-again.webp', again), other);
    expect(readRecipe(again)).toEqual({ kind: 'recipe', recipe: other });
  });

  it('makes an FFmpeg WebP extended too', async () => {
    const before = ffmpeg(
      'ffmpeg.webp',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=16x16:d=0.04',
      '-frames:v',
      '1',
      '-c:v',
      'libwebp',
    );
    const bytes = await written(before, 'image/webp');
    checkXmp(save('ffmpeg-out.webp', bytes));
    expect(decodedMd5(save('ffmpeg-out2.webp', bytes))).toBe(decodedMd5(save('ffmpeg-before.webp', before)));
  });

  it('keeps a WebP with a C2PA chunk byte for byte, and one that is not a WebP unchanged', async () => {
    const plain = pillowWebp('c2pa.webp', 'RGBA', 'quality=90');
    await kept(
      withChunk(plain, riffChunk('C2PA', ascii('\0\0\0\x20jumb\0\0\0\x18jumdc2pa'))),
      'image/webp',
      'c2pa',
    );
    await kept(ffmpeg('not.wav', '-f', 'lavfi', '-i', 'sine=d=0.05'), 'image/webp', 'unsupported');
    // A simple WebP must hold its one image chunk only.
    await kept(
      withChunk(pillowWebp('two.webp', 'RGB', 'quality=90'), riffChunk('JUNK', ascii('x'))),
      'image/webp',
      'unsupported',
    );
  });
});

/** An ID3v2 tag's frames at the start of a file: ids in order, and where the tag ends. */
function id3(bytes: Uint8Array): { version: number; ids: string[]; end: number } {
  expect(latin1(bytes.subarray(0, 3))).toBe('ID3');
  const size = (bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!;
  const version = bytes[3]!;
  const ids: string[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 10; at + 10 <= 10 + size && bytes[at] !== 0;) {
    ids.push(latin1(bytes.subarray(at, at + 4)));
    const s =
      version === 4
        ? (bytes[at + 4]! << 21) | (bytes[at + 5]! << 14) | (bytes[at + 6]! << 7) | bytes[at + 7]!
        : view.getUint32(at + 4);
    at += 10 + s;
  }
  return { version, ids, end: 10 + size };
}

describe('MP3', () => {
  /** The tags both readers give back, and the audio after the tag byte for byte, packets hashed the same. */
  function checkMp3(before: Uint8Array, bytes: Uint8Array, name: string, r: Recipe = recipe): void {
    const path = save(name, bytes);
    const tags = ffprobeTags(path);
    expect(tags.parameters).toBe(parametersText(r));
    expect(JSON.parse(tags['media-studio:recipe'] ?? '')).toEqual(r);
    expect(tags.comment).toBe(parametersText(r));
    // -a -G4: both TXXX frames, told apart by a copy number (JSON has no room for a repeated name).
    const exif = exiftool(path, '-a', '-G4', '-ID3:all', '-validate', '-warning');
    const values = (name: string) =>
      Object.entries(exif)
        .filter(([key]) => key.split(':').at(-1) === name)
        .map(([, value]) => value);
    expect(values('UserDefinedText').sort()).toEqual(
      [`(media-studio:recipe) ${JSON.stringify(r)}`, `(parameters) ${parametersText(r)}`].sort(),
    );
    expect(values('Comment')).toEqual([parametersText(r)]);
    expect(values('Warning')).toEqual([]);
    const tagEnd = before[0] === 0x49 ? id3(before).end : 0;
    expect(same(bytes.subarray(id3(bytes).end), before.subarray(tagEnd))).toBe(true);
    expect(packetsMd5(path)).toBe(packetsMd5(save(`before-${name}`, before)));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe: r });
  }

  it('merges TXXX parameters, TXXX media-studio:recipe and COMM into the ID3v2.4 tag FFmpeg writes, keeping its TSSE and the audio frames', async () => {
    const before = ffmpeg('sine.mp3', '-f', 'lavfi', '-i', 'sine=d=0.2');
    expect(id3(before)).toMatchObject({ version: 4, ids: ['TSSE'] });
    const bytes = await written(before, 'audio/mpeg');
    expect(id3(bytes)).toMatchObject({ version: 4, ids: ['TSSE', 'TXXX', 'TXXX', 'COMM'] });
    // One tag: no second "ID3" in front of the audio.
    expect(latin1(bytes).indexOf('ID3', 3)).toBe(-1);
    expect(ffprobeTags(save('sine-tsse.mp3', bytes)).encoder).toMatch(/^Lavf/);
    checkMp3(before, bytes, 'sine-out.mp3');
  });

  it('writes ID3v2.3 frames (UTF-16) into an ID3v2.3 tag', async () => {
    const before = ffmpeg('sine23.mp3', '-f', 'lavfi', '-i', 'sine=d=0.2', '-id3v2_version', '3');
    expect(id3(before).version).toBe(3);
    const bytes = await written(before, 'audio/mpeg');
    expect(id3(bytes)).toMatchObject({ version: 3, ids: ['TSSE', 'TXXX', 'TXXX', 'COMM'] });
    checkMp3(before, bytes, 'sine23-out.mp3');
  });

  it('puts an ID3v2.4 tag in front of an MP3 without one', async () => {
    const before = ffmpeg('bare.mp3', '-f', 'lavfi', '-i', 'sine=d=0.2', '-id3v2_version', '0');
    expect(before[0]).toBe(0xff);
    const bytes = await written(before, 'audio/mpeg');
    expect(id3(bytes)).toMatchObject({ version: 4, ids: ['TXXX', 'TXXX', 'COMM'] });
    checkMp3(before, bytes, 'bare-out.mp3');
  });

  it('replaces its own frames and the COMM when a written file is written again', async () => {
    const before = ffmpeg('twice.mp3', '-f', 'lavfi', '-i', 'sine=d=0.2');
    const again = await written(await written(before, 'audio/mpeg'), 'audio/mpeg', other);
    expect(id3(again).ids).toEqual(['TSSE', 'TXXX', 'TXXX', 'COMM']);
    checkMp3(before, again, 'twice-out.mp3', other);
  });

  it('keeps an MP3 whose tag has a C2PA GEOB frame byte for byte, and one that is not an MP3 unchanged', async () => {
    const geob = concatBytes([
      Uint8Array.of(0),
      ascii('application/x-c2pa-manifest-store\0\0c2pa\0'),
      ascii('\0\0\0\x20jumb\0\0\0\x18jumdc2pa'),
    ]);
    const frames = concatBytes([ascii('GEOB'), Uint8Array.of(0, 0, 0, geob.length, 0, 0), geob]);
    const tag = concatBytes([ascii('ID3'), Uint8Array.of(4, 0, 0, 0, 0, 0, frames.length), frames]);
    const bare = ffmpeg('c2pa.mp3', '-f', 'lavfi', '-i', 'sine=d=0.1', '-id3v2_version', '0');
    await kept(concatBytes([tag, bare]), 'audio/mpeg', 'c2pa');
    await kept(ffmpeg('not.wav', '-f', 'lavfi', '-i', 'sine=d=0.05'), 'audio/mpeg', 'unsupported');
  });
});

it("reads another tool's TXXX parameters (FFmpeg's, UTF-8 and UTF-16; a big-endian one by hand), and writes ours in its place", async () => {
  const text = 'a cat, ünïcødé\nNegative prompt: dog\nSteps: 30, Seed: 7, Model: catmix';
  const parameters = { prompt: 'a cat, ünïcødé', negativePrompt: 'dog', seed: 7, steps: 30 };
  for (const version of ['4', '3']) {
    const foreign = ffmpeg(
      `foreign${version}.mp3`,
      ...['-f', 'lavfi', '-i', 'sine=d=0.1', '-id3v2_version', version, '-metadata', `parameters=${text}`],
    );
    expect(id3(foreign).ids).toEqual(['TXXX', 'TSSE']);
    expect(readRecipe(foreign)).toMatchObject({ kind: 'parameters', parameters });
    const bytes = await written(foreign, 'audio/mpeg');
    expect(id3(bytes).ids).toEqual(['TSSE', 'TXXX', 'TXXX', 'COMM']);
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
  }
  const utf16be = (t: string) => Uint8Array.from(Buffer.from(`\uFEFF${t}`, 'utf16le').swap16());
  const data = concatBytes([Uint8Array.of(1), utf16be('parameters'), Uint8Array.of(0, 0), utf16be(text)]);
  const frame = concatBytes([
    ascii('TXXX'),
    Uint8Array.of(0, 0, data.length >> 8, data.length & 0xff, 0, 0),
    data,
  ]);
  const tag = concatBytes([
    ascii('ID3'),
    Uint8Array.of(3, 0, 0, 0, 0, frame.length >> 7, frame.length & 0x7f),
    frame,
  ]);
  const bare = ffmpeg('be.mp3', '-f', 'lavfi', '-i', 'sine=d=0.1', '-id3v2_version', '0');
  expect(readRecipe(concatBytes([tag, bare]))).toMatchObject({ kind: 'parameters', parameters });
});

it('passes an MP3 whose ID3 tag is unsynchronised or ID3v2.2 through unchanged', async () => {
  const tagged = ffmpeg('odd-tag.mp3', '-f', 'lavfi', '-i', 'sine=d=0.1');
  const unsynchronised = tagged.slice();
  unsynchronised[5] = 0x80;
  await kept(unsynchronised, 'audio/mpeg', 'unsupported');
  const v22 = tagged.slice();
  v22[3] = 2;
  await kept(v22, 'audio/mpeg', 'unsupported');
});

describe('WAV', () => {
  function checkWav(before: Uint8Array, bytes: Uint8Array, name: string): void {
    const path = save(name, bytes);
    const tags = ffprobeTags(path);
    expect(tags.comment).toBe(parametersText(recipe));
    expect(tags.encoder).toBe(`${STUDIO.name} ${STUDIO.version}`);
    const exif = exiftool(path, '-charset', 'RIFF=UTF8', '-RIFF:all', '-XML:all', '-validate', '-warning');
    expect(exif.Comment).toBe(parametersText(recipe));
    expect(exif.Software).toBe(`${STUDIO.name} ${STUDIO.version}`);
    // exiftool reads iXML as XML: the root element's children, by name.
    expect(JSON.parse(String((exif.Bwfxml as { MediaStudioRecipe?: string }).MediaStudioRecipe))).toEqual(
      recipe,
    );
    expect(exif.Warning).toBeUndefined();
    const data = (b: Uint8Array) => {
      const chunk = riff(b).find((c) => c.id === 'data')!;
      return b.subarray(chunk.at, chunk.at + chunk.size);
    };
    expect(same(data(bytes), data(before))).toBe(true);
    expect(decodedMd5(path)).toBe(decodedMd5(save(`before-${name}`, before)));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
  }

  it('sets ICMT and ISFT in the INFO list FFmpeg writes, appends an iXML after the data, and the samples stay', async () => {
    const before = ffmpeg('sine.wav', '-f', 'lavfi', '-i', 'sine=d=0.2');
    expect(riff(before).map((c) => c.id)).toEqual(['fmt ', 'LIST', 'data']);
    const bytes = await written(before, 'audio/wav');
    expect(riff(bytes).map((c) => c.id)).toEqual(['fmt ', 'LIST', 'data', 'iXML']);
    checkWav(before, bytes, 'sine-out.wav');
    // The other Content-Types a WAV is served as.
    expect(embedRecipe(before, 'audio/x-wav', recipe).bytes).toEqual(bytes);
    expect(embedRecipe(before, 'audio/wave', recipe).bytes).toEqual(bytes);
  });

  it('appends the INFO list and iXML after an odd-sized data chunk, its pad byte put in', async () => {
    const before = ffmpeg(
      'odd.wav',
      ...['-f', 'lavfi', '-i', 'sine=d=0.2', '-af', 'atrim=end_sample=1601', '-ac', '1', '-c:a', 'pcm_u8'],
      ...['-fflags', '+bitexact'],
    );
    const original = riff(before);
    expect(original.map((c) => c.id)).toEqual(['fmt ', 'data']);
    expect(original[1]!.size % 2).toBe(1);
    const bytes = await written(before, 'audio/wav');
    const chunks = riff(bytes);
    expect(chunks.map((c) => c.id)).toEqual(['fmt ', 'data', 'LIST', 'iXML']);
    expect(chunks[2]!.at - 8).toBe(original[1]!.at + original[1]!.size + 1);
    checkWav(before, bytes, 'odd-out.wav');

    // A writer that left the last pad byte out (the RIFF size counting without it): the pad goes back in.
    const unpadded = before.slice(0, before.length - 1);
    new DataView(unpadded.buffer).setUint32(4, unpadded.length - 8, true);
    expect(same(await written(unpadded, 'audio/wav'), bytes)).toBe(true);
  });

  it("replaces its own iXML when written again, and keeps another tool's iXML (the recipe then in ICMT)", async () => {
    const before = ffmpeg('again.wav', '-f', 'lavfi', '-i', 'sine=d=0.1');
    const again = await written(await written(before, 'audio/wav'), 'audio/wav', other);
    expect(riff(again).map((c) => c.id)).toEqual(['fmt ', 'LIST', 'data', 'iXML']);
    expect(readRecipe(again)).toEqual({ kind: 'recipe', recipe: other });

    const foreign = withChunk(before, riffChunk('iXML', ascii('<BWFXML><PROJECT>take 1</PROJECT></BWFXML>')));
    const bytes = await written(foreign, 'audio/wav');
    const chunks = riff(bytes);
    expect(chunks.map((c) => c.id)).toEqual(['fmt ', 'LIST', 'data', 'iXML']);
    expect(latin1(bytes.subarray(chunks[3]!.at))).toBe('<BWFXML><PROJECT>take 1</PROJECT></BWFXML>');
    expect(readRecipe(bytes)).toMatchObject({ kind: 'parameters', parameters: { seed: 42, steps: 20 } });
  });

  it('keeps a WAV with a C2PA chunk byte for byte, and one that is not a WAV unchanged', async () => {
    const plain = ffmpeg('c2pa.wav', '-f', 'lavfi', '-i', 'sine=d=0.1');
    await kept(
      withChunk(plain, riffChunk('C2PA', ascii('\0\0\0\x20jumb\0\0\0\x18jumdc2pa'))),
      'audio/wav',
      'c2pa',
    );
    await kept(ffmpeg('not.mp3', '-f', 'lavfi', '-i', 'sine=d=0.05'), 'audio/wav', 'unsupported');
    // Cut short: the data chunk runs past the end.
    await kept(plain.subarray(0, plain.length - 3), 'audio/wav', 'unsupported');
  });
});

describe('MP4 and MOV', () => {
  const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';

  async function checkMp4(before: Uint8Array, type: string, name: string): Promise<void> {
    const bytes = await written(before, type);
    // Appended: every byte before it is the file as it was.
    expect(same(bytes.subarray(0, before.length), before)).toBe(true);
    const box = bytes.subarray(before.length);
    expect(new DataView(box.buffer, box.byteOffset).getUint32(0)).toBe(box.length);
    expect(latin1(box.subarray(4, 8))).toBe('uuid');
    expect(Buffer.from(box.subarray(8, 24)).toString('hex')).toBe(XMP_UUID);
    const path = save(name, bytes);
    const tags = exiftool(path, '-XMP:all', '-validate', '-warning');
    expect(JSON.parse(String(tags.Recipe))).toEqual(recipe);
    expect(tags.Parameters).toBe(parametersText(recipe));
    expect(tags.Warning).toBeUndefined();
    expect(packetsMd5(path)).toBe(packetsMd5(save(`before-${name}`, before)));
    expect(decodedMd5(path)).toBe(decodedMd5(save(`before2-${name}`, before)));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
  }

  it('appends an XMP uuid box to an MP4 that exiftool reads, the frames unchanged', async () => {
    const before = ffmpeg(
      'red.mp4',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=16x16:d=0.1',
      '-f',
      'lavfi',
      '-i',
      'sine=d=0.1',
    );
    await checkMp4(before, 'video/mp4', 'red-out.mp4');
  });

  it('appends the box to a QuickTime MOV and to a fast-start MP4 (moov before mdat) alike', async () => {
    await checkMp4(
      ffmpeg('red.mov', '-f', 'lavfi', '-i', 'color=c=red:s=16x16:d=0.1'),
      'video/quicktime',
      'red-out.mov',
    );
    await checkMp4(
      ffmpeg('fast.mp4', '-f', 'lavfi', '-i', 'color=c=blue:s=16x16:d=0.1', '-movflags', '+faststart'),
      'video/mp4',
      'fast-out.mp4',
    );
  });

  it('reads the newest recipe from an MP4 written twice, as exiftool does', async () => {
    const before = ffmpeg('twice.mp4', '-f', 'lavfi', '-i', 'color=c=red:s=16x16:d=0.1');
    const again = await written(await written(before, 'video/mp4'), 'video/mp4', other);
    expect(readRecipe(again)).toEqual({ kind: 'recipe', recipe: other });
    const tags = exiftool(save('twice-out.mp4', again), '-XMP:all');
    expect(JSON.parse(String(tags.Recipe))).toEqual(other);
  });

  it('passes an MP4 whose last box runs to the end of the file (size 0) through unchanged', async () => {
    const plain = ffmpeg('open.mp4', '-f', 'lavfi', '-i', 'color=c=red:s=16x16:d=0.1');
    await kept(
      concatBytes([plain, Uint8Array.of(0, 0, 0, 0), ascii('free'), ascii('rest')]),
      'video/mp4',
      'unsupported',
    );
  });

  it('keeps an MP4 with a C2PA uuid box byte for byte, and one cut short or not an MP4 unchanged', async () => {
    const plain = ffmpeg('c2pa.mp4', '-f', 'lavfi', '-i', 'color=c=red:s=16x16:d=0.1');
    const manifest = concatBytes([ascii('\0\0\0\x20jumb\0\0\0\x18jumdc2pa')]);
    const c2paBox = concatBytes([
      Uint8Array.of(0, 0, 0, 24 + manifest.length),
      ascii('uuid'),
      Uint8Array.from(Buffer.from('d8fec3d61b0e483c92975828877ec481', 'hex')),
      manifest,
    ]);
    await kept(concatBytes([plain, c2paBox]), 'video/mp4', 'c2pa');
    await kept(plain.subarray(0, plain.length - 5), 'video/mp4', 'unsupported');
    await kept(ffmpeg('not.mp3', '-f', 'lavfi', '-i', 'sine=d=0.05'), 'video/mp4', 'unsupported');
  });
});
