// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-types';
import { concatBytes } from './embed';
import { embedRecipe, readRecipe, streamWithRecipe, type EmbedOutcome } from './file-recipe';
import { pngChunk } from './png-chunks';
import { parametersText, parseParametersText, recipeOf, STUDIO } from './recipe';

// Each format round-trips through readers that share no code with ours: exiftool (Debian's
// libimage-exiftool-perl) and Python's Pillow (python3-pil), both installed by scripts/setup-machine.sh.
// The pixels are decoded before and after (sharp) and must be equal: the writers never re-encode.

const dir = mkdtempSync(join(tmpdir(), 'recipes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Debian's python3 has Pillow; a python3 earlier on PATH (pyenv, a venv) may not.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const UPLOAD = 'http://127.0.0.1:4010/cdn/uploads/up_1/source.png';
const OUTPUT = 'http://127.0.0.1:4010/cdn/outputs/task_1/0.png';

const entry: HistoryEntry = {
  taskId: 'task_AbCdEfGh123',
  connectionId: 'conn_1',
  request: {
    interfaceId: 'lumen-canvas',
    versionId: 'v2',
    params: {
      prompt: 'A glass teapot, "steam" & <light>\nsecond line, ünïcødé 茶壺',
      negative_prompt: 'blurry, low quality',
      seed: 42,
      steps: 20,
      aspect_ratio: '16:9',
      image_url: UPLOAD,
      reference_urls: [OUTPUT, UPLOAD],
    },
  },
  meta: {
    title: 'Lumen Canvas v2',
    subtitle: '',
    kind: 'model',
    mediaType: 'image',
    modelId: 'lumen-canvas',
    versionId: 'v2',
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status: 'succeeded',
  outputs: [{ url: OUTPUT }] as HistoryEntry['outputs'],
  error: null,
  creditsCharged: 4,
  createdAt: Date.UTC(2026, 10, 28, 12, 0, 0),
  completedAt: null,
  unseen: false,
};
const recipe = recipeOf(entry, 0);

const WIDTH = 48;
const HEIGHT = 32;
const pixels = Buffer.from(Array.from({ length: WIDTH * HEIGHT * 3 }, (_, i) => (i * 37 + (i >> 5)) % 256));
const image = () => sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });

const decoded = async (bytes: Uint8Array) => (await sharp(bytes).raw().toBuffer()).toString('base64');

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/**
 * Every chunk's CRC checked with zlib's CRC-32 (neither Pillow nor exiftool checks the chunks after IDAT):
 * the chunk types in order, or an error naming the first bad one.
 */
function checkedChunks(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at);
    const type = Buffer.from(bytes.subarray(at + 4, at + 8)).toString('latin1');
    const crc = zlibCrc32(bytes.subarray(at + 4, at + 8 + length));
    if (crc !== view.getUint32(at + 8 + length)) throw new Error(`bad CRC in ${type}`);
    types.push(type);
    at += 12 + length;
  }
  return types;
}

function exiftool(path: string, ...args: string[]): Record<string, unknown> {
  const out = execFileSync('exiftool', ['-j', ...args, path], { encoding: 'utf8' });
  return (JSON.parse(out) as Array<Record<string, unknown>>)[0] ?? {};
}

/** The file fed in pieces of `size` bytes through the stream writer. */
async function throughStream(bytes: Uint8Array, type: string, size: number) {
  let outcome: EmbedOutcome | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });
  const chunks: Uint8Array[] = [];
  const reader = streamWithRecipe(body, type, recipe, (o) => (outcome = o)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { bytes: concatBytes(chunks), outcome };
}

describe('recipeOf', () => {
  it('holds the model, version, every param, prompt, negative prompt, seed, studio, task id and time', () => {
    expect(recipe).toMatchObject({
      taskId: 'task_AbCdEfGh123',
      outputIndex: 0,
      createdAt: '2026-11-28T12:00:00.000Z',
      model: 'lumen-canvas',
      modelVersion: 'v2',
      prompt: entry.request.params.prompt,
      negativePrompt: 'blurry, low quality',
      seed: 42,
      studio: { name: 'Media Studio', version: expect.any(String) },
    });
    expect(recipe.params.steps).toBe(20);
    expect(recipe.params.aspect_ratio).toBe('16:9');
  });

  it("marks a private upload's URL as one that expires, and leaves an output's URL plain", () => {
    expect(recipe.params.image_url).toEqual({ url: UPLOAD, expires: true });
    expect(recipe.params.reference_urls).toEqual([OUTPUT, { url: UPLOAD, expires: true }]);
    expect(JSON.stringify(recipe)).not.toContain('conn_1');
  });

  it("names the studio's version as package.json does", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(STUDIO.version).toBe(pkg.version);
  });
});

describe('the parameters text', () => {
  it('is written in the A1111 style and read back', () => {
    const text = parametersText(recipe);
    expect(text.split('\n').at(-1)).toMatch(/^Steps: 20, Seed: 42, Model: lumen-canvas, Model version: v2, /);
    expect(text).toContain('\nNegative prompt: blurry, low quality\n');
    expect(parseParametersText(text)).toMatchObject({
      prompt: entry.request.params.prompt,
      negativePrompt: 'blurry, low quality',
      seed: 42,
      steps: 20,
    });
  });

  it("reads another tool's text as far as it maps", () => {
    const a1111 =
      'masterpiece, a red fox\nin the snow\nNegative prompt: lowres, bad hands\n' +
      'Steps: 28, Sampler: DPM++ 2M Karras, CFG scale: 7, Seed: 1234567890, Size: 512x768, Model hash: abc123, Model: foxmix';
    expect(parseParametersText(a1111)).toEqual({
      prompt: 'masterpiece, a red fox\nin the snow',
      negativePrompt: 'lowres, bad hands',
      seed: 1234567890,
      steps: 28,
      settings: {
        Steps: '28',
        Sampler: 'DPM++ 2M Karras',
        'CFG scale': '7',
        Seed: '1234567890',
        Size: '512x768',
        'Model hash': 'abc123',
        Model: 'foxmix',
      },
    });
    expect(parseParametersText('just a prompt')).toEqual({ prompt: 'just a prompt', settings: {} });
  });
});

describe('PNG', () => {
  it('round-trips through exiftool and Pillow, with CRCs zlib agrees with and the same pixels', async () => {
    const before = new Uint8Array(await image().png().toBuffer());
    const { bytes, outcome } = embedRecipe(before, 'image/png', recipe);
    expect(outcome).toBe('written');
    // The prompt is not Latin-1, so `parameters` is iTXt too (tEXt holds Latin-1 only).
    expect(checkedChunks(bytes).slice(-3)).toEqual(['iTXt', 'iTXt', 'IEND']);
    const path = save('out.png', bytes);

    const pillow = JSON.parse(
      execFileSync(
        PYTHON,
        [
          '-c',
          'import json,sys; from PIL import Image; im=Image.open(sys.argv[1]); im.load(); print(json.dumps(im.text))',
          path,
        ],
        { encoding: 'utf8' },
      ),
    ) as Record<string, string>;
    expect(pillow.parameters).toBe(parametersText(recipe));
    expect(JSON.parse(pillow['media-studio:recipe'] ?? '')).toEqual(recipe);

    const tags = exiftool(path, '-PNG:all', '-validate', '-warning');
    expect(tags.Parameters).toBe(parametersText(recipe));
    const json = Object.entries(tags).find(([key]) => /recipe/i.test(key))?.[1];
    expect(JSON.parse(String(json))).toEqual(recipe);
    // The one remark exiftool makes: the chunks come after IDAT, where streaming puts them (PNG allows
    // text chunks anywhere between IHDR and IEND). A bad CRC or chunk would be a warning of its own.
    expect([
      undefined,
      '[minor] Text/EXIF chunk(s) found after PNG IDAT (may be ignored by some readers)',
    ]).toContain(tags.Warning);

    expect(await decoded(bytes)).toBe(await decoded(before));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
  });

  it('writes a Latin-1 parameters text as tEXt, as A1111 does, and Pillow reads it', async () => {
    const latin = recipeOf(
      { ...entry, request: { ...entry.request, params: { prompt: 'café au lait', seed: 7 } } },
      0,
    );
    const { bytes } = embedRecipe(new Uint8Array(await image().png().toBuffer()), 'image/png', latin);
    expect(checkedChunks(bytes).slice(-3)).toEqual(['tEXt', 'iTXt', 'IEND']);
    const path = save('latin.png', bytes);
    const text = execFileSync(
      PYTHON,
      [
        '-c',
        'import sys; from PIL import Image; print(Image.open(sys.argv[1]).text["parameters"], end="")',
        path,
      ],
      { encoding: 'utf8' },
    );
    expect(text).toBe(parametersText(latin));
    expect(text.startsWith('café au lait\nSeed: 7, Model: lumen-canvas')).toBe(true);
  });

  it('streams to the same bytes, whatever the size of the pieces', async () => {
    const before = new Uint8Array(await image().png().toBuffer());
    const whole = embedRecipe(before, 'image/png', recipe).bytes;
    for (const size of [1, 7, 8, 13, 4096]) {
      const streamed = await throughStream(before, 'image/png', size);
      expect(streamed.outcome).toBe('written');
      expect(Buffer.from(streamed.bytes).equals(Buffer.from(whole))).toBe(true);
    }
  });

  it('keeps a PNG with a C2PA manifest (caBX) byte for byte, and says so', async () => {
    const plain = new Uint8Array(await image().png().toBuffer());
    // After IHDR (8 + 25 bytes), where C2PA puts it: a fake manifest store, enough to be recognised.
    const signed = concatBytes([
      plain.subarray(0, 33),
      pngChunk('caBX', new TextEncoder().encode('jumbc2pa')),
      plain.subarray(33),
    ]);
    const { bytes, outcome } = embedRecipe(signed, 'image/png', recipe);
    expect(outcome).toBe('c2pa');
    expect(Buffer.from(bytes).equals(Buffer.from(signed))).toBe(true);
    const streamed = await throughStream(signed, 'image/png', 5);
    expect(streamed.outcome).toBe('c2pa');
    expect(Buffer.from(streamed.bytes).equals(Buffer.from(signed))).toBe(true);
  });

  it("reads another tool's parameters chunk", async () => {
    const plain = new Uint8Array(await image().png().toBuffer());
    const end = plain.length - 12;
    const text = 'a cat\nNegative prompt: dog\nSteps: 30, Seed: 7, Model: catmix';
    const tEXt = pngChunk('tEXt', new TextEncoder().encode(`parameters\0${text}`));
    const foreign = concatBytes([plain.subarray(0, end), tEXt, plain.subarray(end)]);
    expect(readRecipe(foreign)).toMatchObject({
      kind: 'parameters',
      parameters: { prompt: 'a cat', negativePrompt: 'dog', seed: 7, steps: 30 },
    });
  });
});

describe('JPEG', () => {
  it('round-trips through exiftool (XMP) and opens in Pillow, with the same pixels', async () => {
    const bare = new Uint8Array(await image().jpeg({ quality: 90 }).toBuffer());
    // sharp writes no JFIF APP0; most cameras and services do, and it must stay first.
    const jfif = Uint8Array.of(0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0);
    const before = concatBytes([bare.subarray(0, 2), jfif, bare.subarray(2)]);
    const { bytes, outcome } = embedRecipe(before, 'image/jpeg', recipe);
    expect(outcome).toBe('written');
    const path = save('out.jpg', bytes);
    const tags = exiftool(path, '-XMP:all', '-validate', '-warning');
    expect(JSON.parse(String(tags.Recipe))).toEqual(recipe);
    expect(tags.Parameters).toBe(parametersText(recipe));
    expect(tags.Warning).toBeUndefined();
    // Inserted right after SOI and the JFIF APP0: the rest of the file follows unchanged.
    expect(
      Buffer.from(bytes.subarray(0, 22)).equals(Buffer.from([...before.subarray(0, 20), 0xff, 0xe1])),
    ).toBe(true);
    expect(
      Buffer.from(bytes.subarray(bytes.length - (before.length - 20))).equals(
        Buffer.from(before.subarray(20)),
      ),
    ).toBe(true);
    expect(exiftool(path, '-JFIF:JFIFVersion').JFIFVersion).toBe(1.01);

    const pillow = execFileSync(
      PYTHON,
      [
        '-c',
        'import sys; from PIL import Image; im=Image.open(sys.argv[1]); im.load(); print(im.format, im.size)',
        path,
      ],
      { encoding: 'utf8' },
    );
    expect(pillow.trim()).toBe(`JPEG (${WIDTH}, ${HEIGHT})`);

    expect(await decoded(bytes)).toBe(await decoded(before));
    expect(readRecipe(bytes)).toEqual({ kind: 'recipe', recipe });
    for (const size of [1, 3, 1000]) {
      const streamed = await throughStream(before, 'image/jpeg', size);
      expect(streamed.outcome).toBe('written');
      expect(Buffer.from(streamed.bytes).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it('keeps a JPEG with a C2PA manifest (APP11 JUMBF) byte for byte, and says so', async () => {
    const plain = new Uint8Array(await image().jpeg().toBuffer());
    const payload = new TextEncoder().encode('JP\0\x01\0\0\0\x01\0\0\0\x20jumb\0\0\0\x18jumdc2pa');
    const app11 = concatBytes([Uint8Array.of(0xff, 0xeb, 0, payload.length + 2), payload]);
    const signed = concatBytes([plain.subarray(0, 2), app11, plain.subarray(2)]);
    const { bytes, outcome } = embedRecipe(signed, 'image/jpeg', recipe);
    expect(outcome).toBe('c2pa');
    expect(Buffer.from(bytes).equals(Buffer.from(signed))).toBe(true);
    const streamed = await throughStream(signed, 'image/jpeg', 4);
    expect(streamed.outcome).toBe('c2pa');
    expect(Buffer.from(streamed.bytes).equals(Buffer.from(signed))).toBe(true);
  });
});

it('passes other formats and files that are not what their type says through unchanged', () => {
  const bytes = new TextEncoder().encode('not an image');
  expect(embedRecipe(bytes, 'image/png', recipe)).toEqual({ bytes, outcome: 'unsupported' });
  expect(embedRecipe(bytes, 'image/jpeg', recipe)).toEqual({ bytes, outcome: 'unsupported' });
  expect(embedRecipe(bytes, 'video/mp4', recipe)).toEqual({ bytes, outcome: 'unsupported' });
});
