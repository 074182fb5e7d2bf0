import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useSandbox } from './harness';
import {
  MIME_OF,
  advance,
  decodeMedia,
  download,
  finish,
  makeImage,
  makeWav,
  pixelDiff,
  quote,
  raw,
  runOutput,
  sniff,
  submit,
  uploadReady,
} from './fixtures';

// api-notes §2 "Output URL delivery", product-notes §4 (outputs are real files that differ by prompt, model and params),
// README (one image URL in three has a misleading extension).

const h = useSandbox();

const canvas = (params: Record<string, unknown>) =>
  raw('lumen-canvas', 'lumen-canvas-v2', { prompt: 'a lighthouse on a cliff at dusk', ...params });

/** The Content-Type names the true format of the bytes. */
function expectTruthful(file: { bytes: Buffer; contentType: string }) {
  const kind = sniff(file.bytes);
  expect(kind, `magic bytes of a ${file.contentType} file`).not.toBe('unknown');
  expect(MIME_OF[kind], `served as ${file.contentType}, bytes are ${kind}`).toContain(file.contentType);
  return kind;
}

describe('image outputs', () => {
  it('are real PNG or JPEG whose pixel size follows aspect_ratio and resolution', async () => {
    const cases: Array<[string, string, number]> = [
      ['16:9', '1K', 16 / 9],
      ['9:16', '1K', 9 / 16],
      ['4:3', '1K', 4 / 3],
      ['1:1', '2K', 1],
      ['1:1', '512', 1],
      ['21:9', '512', 21 / 9],
    ];
    const longSide: Record<string, number[]> = {};
    for (const [aspect_ratio, resolution, ratio] of cases) {
      const { file } = await runOutput(h, canvas({ aspect_ratio, resolution }));
      const kind = expectTruthful(file);
      expect(['png', 'jpeg']).toContain(kind);
      const meta = await sharp(file.bytes).metadata();
      expect(meta.format === 'jpeg' ? 'jpeg' : meta.format).toBe(kind);
      expect(
        Math.abs(meta.width! / meta.height! - ratio),
        `${aspect_ratio}: ${meta.width}x${meta.height}`,
      ).toBeLessThan(0.02);
      (longSide[resolution] ??= []).push(Math.max(meta.width!, meta.height!));
    }
    const one = longSide['1K']![0]!;
    expect(one).toBeGreaterThanOrEqual(900);
    expect(one).toBeLessThanOrEqual(1100);
    expect(longSide['2K']![0]! / one).toBeGreaterThan(1.8);
    expect(longSide['512']![0]! / one).toBeLessThan(0.6);
  });

  it('state their true format in Content-Type even when the URL extension disagrees (one in three)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 18; i++) {
      const r = await submit(
        h,
        raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: `sticker number ${i}`, resolution: '512' }),
        'team',
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.taskId);
    }
    await advance(h, 10_000);
    let disagreements = 0;
    for (const id of ids) {
      const t = await finish(h, id, 'team');
      expect(t.body.status).toBe('succeeded');
      const url = t.body.outputs[0].url as string;
      const file = await download(url);
      const kind = expectTruthful(file);
      const ext = new URL(url).pathname.split('.').pop()!.toLowerCase();
      const extKind = ext === 'jpg' || ext === 'jpeg' ? 'jpeg' : ext;
      if (extKind !== kind) disagreements++;
    }
    expect(disagreements, 'no output URL had a misleading extension').toBeGreaterThan(0);
    expect(disagreements).toBeLessThan(18);
  });

  it('a jpeg-only model gives JPEG, and the content type always matches', async () => {
    const { file } = await runOutput(
      h,
      raw('northwind-aurora', 'northwind-aurora-1', { prompt: 'a portrait', aspect_ratio: '1:1' }),
    );
    expect(expectTruthful(file)).toBe('jpeg');
  });

  it('different prompts give different, visibly different images', async () => {
    const a = await runOutput(h, canvas({ prompt: 'a red fox in deep snow', resolution: '512' }));
    const b = await runOutput(h, canvas({ prompt: 'a blue whale in a dark ocean', resolution: '512' }));
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
    expect(await pixelDiff(a.file.bytes, b.file.bytes)).toBeGreaterThan(5);
  });

  it('different models give different images for the same prompt and size', async () => {
    const prompt = 'a bowl of lemons on a table';
    const a = await runOutput(
      h,
      raw('lumen-canvas', 'lumen-canvas-v2', { prompt, aspect_ratio: '1:1', resolution: '1K' }),
    );
    const b = await runOutput(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt, aspect_ratio: '1:1', resolution: '1K' }),
    );
    const c = await runOutput(
      h,
      raw('lumen-canvas', 'lumen-canvas-v3', { prompt, aspect_ratio: '1:1', resolution: '1K' }),
    );
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
    expect(a.file.bytes.equals(c.file.bytes)).toBe(false);
    expect(await pixelDiff(a.file.bytes, b.file.bytes)).toBeGreaterThan(5);
  });

  it('different params give different images', async () => {
    const a = await runOutput(h, canvas({ style: 'watercolor', resolution: '512' }));
    const b = await runOutput(h, canvas({ style: 'pixel-art', resolution: '512' }));
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
    expect(await pixelDiff(a.file.bytes, b.file.bytes)).toBeGreaterThan(3);
  });

  it('background removal gives a PNG with transparent pixels', async () => {
    const photo = await uploadReady(
      h,
      await makeImage({ width: 200, height: 150, format: 'jpeg' }),
      'image/jpeg',
    );
    const { file } = await runOutput(h, { aiTool: 'remove-background', params: { image_url: photo } });
    expect(expectTruthful(file)).toBe('png');
    const { data, info } = await sharp(file.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    let transparent = 0;
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) {
      if (data[i] === 0) transparent++;
      else if (data[i]! > 200) opaque++;
    }
    expect(transparent, 'pixels with alpha 0').toBeGreaterThan(0);
    expect(opaque, 'subject pixels kept').toBeGreaterThan(0);
  });

  it('the upscaler output is larger than its input (4x tool, 2x raw)', async () => {
    const input = await uploadReady(h, await makeImage({ width: 120, height: 80 }), 'image/png');
    const four = await runOutput(h, { aiTool: 'upscale-4x', params: { image: input } });
    expectTruthful(four.file);
    const m4 = await sharp(four.file.bytes).metadata();
    expect(m4.width).toBeGreaterThan(120);
    expect(m4.width! / 120).toBeCloseTo(4, 1);
    expect(m4.height! / 80).toBeCloseTo(4, 1);
    const two = await runOutput(
      h,
      raw('pixelmoss-upscale', 'pixelmoss-upscale-1', { image: input, scale: '2' }),
    );
    const m2 = await sharp(two.file.bytes).metadata();
    expect(m2.width! / 120).toBeCloseTo(2, 1);
    expect(m2.height! / 80).toBeCloseTo(2, 1);
  });

  it('upscaling a transparent image delivers a PNG that keeps its transparency (api-notes §2: PNG when the source has it)', async () => {
    const clear = await sharp({
      create: { width: 64, height: 48, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([{ input: await makeImage({ width: 32, height: 24 }), left: 16, top: 12 }])
      .png()
      .toBuffer();
    const input = await uploadReady(h, clear, 'image/png');
    const { file } = await runOutput(
      h,
      raw('pixelmoss-upscale', 'pixelmoss-upscale-1', { image: input, scale: '2' }),
    );
    expect(expectTruthful(file)).toBe('png');
    const { data, info } = await sharp(file.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(128);
    let transparent = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] === 0) transparent++;
    expect(transparent, 'pixels with alpha 0').toBeGreaterThan(0);
  });

  it('an output URL can be fed back as an image param of another task', async () => {
    const first = await runOutput(h, canvas({ resolution: '512', aspect_ratio: '4:3' }));
    const m1 = await sharp(first.file.bytes).metadata();
    const second = await runOutput(
      h,
      raw('pixelmoss-upscale', 'pixelmoss-upscale-1', { image: first.url, scale: '2' }),
    );
    const m2 = await sharp(second.file.bytes).metadata();
    expect(m2.width! / m1.width!).toBeCloseTo(2, 1);
    const anim = await runOutput(
      h,
      raw('lumen-keyframe', 'lumen-keyframe-1', {
        prompt: 'drift',
        first_frame: first.url,
        resolution: '480p',
      }),
    );
    expect(anim.task.status).toBe('succeeded');
  });

  it('are served with CORS headers', async () => {
    const { url } = await runOutput(h, canvas({ resolution: '512' }));
    const r = await fetch(url, { headers: { Origin: 'http://localhost:5173' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('SVG outputs', () => {
  it('are image/svg+xml, sized by aspect_ratio, with no script even when the prompt carries one', async () => {
    const { file } = await runOutput(
      h,
      raw('quill-vector', 'quill-vector-1', {
        prompt: 'fox logo <script>alert(1)</script><img src=x onerror=alert(2)>',
        aspect_ratio: '16:9',
        brand_text: '<script>alert(3)</script>',
      }),
    );
    expect(file.contentType).toBe('image/svg+xml');
    expect(sniff(file.bytes)).toBe('svg');
    const text = file.bytes.toString('utf8');
    expect(text).not.toMatch(/<script/i);
    expect(text).not.toMatch(/<img/i);
    // No event-handler attribute on any element (escaped text inside <title> is harmless).
    expect(text).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(text).not.toMatch(/javascript:/i);
    const meta = await sharp(file.bytes).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(16 / 9, 1);
  });

  it('the [svg-script] trigger embeds a <script> and an onload handler, and the CDN still serves it sandboxed', async () => {
    const { file, url } = await runOutput(
      h,
      raw('pixelmoss-icons', 'pixelmoss-icons-1', { prompt: 'a shield icon [svg-script]' }),
    );
    expect(file.contentType).toBe('image/svg+xml');
    expect(sniff(file.bytes)).toBe('svg');
    const text = file.bytes.toString('utf8');
    // The root element carries the handler, its first child is the script; both would show a dialog.
    expect(text).toMatch(/<svg [^>]*\sonload="[^"]*alert\('svg-onload ran'\)[^"]*"[^>]*><script\b/);
    const script = /<script[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/script>/.exec(text)?.[1];
    expect(script).toContain("alert('svg-script ran')");
    expect(script).toContain("top.postMessage('svg-script ran','*')");
    expect(script).toContain("document.title='svg-script ran'");
    // Still a well-formed SVG of the asked size (librsvg parses it; scripts are ignored by renderers).
    const meta = await sharp(file.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['svg', 1024, 1024]);
    // Opened directly from the CDN it still cannot run: the media CSP sandboxes it without scripts.
    expect(file.headers.get('content-security-policy')).toMatch(/(^|;\s*)sandbox\s*(;|$)/);
    expect(file.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    // Only the trigger does it: the same prompt without it stays inert.
    const plain = await runOutput(
      h,
      raw('pixelmoss-icons', 'pixelmoss-icons-1', { prompt: 'a shield icon' }),
    );
    expect(plain.file.bytes.toString('utf8')).not.toMatch(/<script|\son[a-z]+\s*=/i);
    expect(url).toMatch(/\.svg$/);
  });

  it('differ by prompt and model', async () => {
    const a = await runOutput(h, raw('pixelmoss-icons', 'pixelmoss-icons-1', { prompt: 'a star' }));
    const b = await runOutput(h, raw('pixelmoss-icons', 'pixelmoss-icons-1', { prompt: 'a house' }));
    const c = await runOutput(h, raw('quill-vector', 'quill-vector-1', { prompt: 'a star' }));
    expect(a.file.contentType).toBe('image/svg+xml');
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
    expect(a.file.bytes.equals(c.file.bytes)).toBe(false);
  });
});

describe('video outputs', () => {
  for (const [label, body, format, seconds, portrait] of [
    [
      'mp4 (lumen-motion)',
      raw('lumen-motion', 'lumen-motion-1', { prompt: 'clouds over hills', duration: '3' }),
      'mp4',
      3,
      false,
    ],
    [
      'webm (northwind-reel)',
      raw('northwind-reel', 'northwind-reel-1', {
        prompt: 'a skateboarder',
        duration: 4,
        resolution: '480p',
        aspect_ratio: '9:16',
      }),
      'webm',
      4,
      true,
    ],
  ] as const) {
    it(`${label}: true type and magic, plays for the requested length, a thumbnail, byte ranges`, async () => {
      const { task, file, url } = await runOutput(h, body);
      expect(file.contentType).toBe(`video/${format}`);
      expect(sniff(file.bytes)).toBe(format);
      // api-notes §2: video URLs pass through unchanged, so their extension is the true one.
      expect(new URL(url).pathname.endsWith(`.${format}`), url).toBe(true);
      const decoded = await decodeMedia(file.bytes, format);
      expect(Math.abs(decoded.seconds - seconds), decoded.log.slice(-400)).toBeLessThan(0.6);

      const thumbUrl = task.outputs[0].thumbnailUrl as string;
      expect(typeof thumbUrl).toBe('string');
      const thumb = await download(thumbUrl);
      expect(thumb.status).toBe(200);
      expect(thumb.contentType.startsWith('image/')).toBe(true);
      expectTruthful(thumb);
      const tm = await sharp(thumb.bytes).metadata();
      expect(tm.height! > tm.width!).toBe(portrait);

      const total = file.bytes.length;
      const part = await download(url, { Range: 'bytes=0-99' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 0-99/${total}`);
      expect(part.bytes.equals(file.bytes.subarray(0, 100))).toBe(true);
      const tail = await download(url, { Range: `bytes=${total - 50}-` });
      expect(tail.status).toBe(206);
      expect(tail.headers.get('content-range')).toBe(`bytes ${total - 50}-${total - 1}/${total}`);
      expect(tail.bytes.equals(file.bytes.subarray(total - 50))).toBe(true);
      // A real encode by ffmpeg: on a loaded 2-core machine it can take longer than the project's limit.
    }, 60_000);
  }

  it('different prompts give different videos', async () => {
    const a = await runOutput(
      h,
      raw('lumen-motion', 'lumen-motion-1', { prompt: 'a red car', duration: '3' }),
    );
    const b = await runOutput(
      h,
      raw('lumen-motion', 'lumen-motion-1', { prompt: 'a green forest', duration: '3' }),
    );
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
    const ta = await download(a.task.outputs[0].thumbnailUrl);
    const tb = await download(b.task.outputs[0].thumbnailUrl);
    expect(await pixelDiff(ta.bytes, tb.bytes)).toBeGreaterThan(3);
  });

  it('a video output is usable as a video param and priced by its length', async () => {
    const { url } = await runOutput(
      h,
      raw('lumen-motion', 'lumen-motion-1', { prompt: 'a river', duration: '6' }),
    );
    const q = await quote(h, raw('halcyon-extend', 'halcyon-extend-1', { prompt: 'more river', video: url }));
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body.breakdown.base).toBeCloseTo(6, 0); // 1 credit per input second
  });
});

describe('audio outputs', () => {
  const cases: Array<[string, string, (voice: string) => unknown, number | null]> = [
    [
      'text-to-speech',
      'echoform-voice',
      () =>
        raw('echoform-voice', 'echoform-voice-1', {
          prompt: 'Hello from the sandbox, this is a test.',
          voice: 'bram',
        }),
      null,
    ],
    [
      'text-to-speech',
      'quill-narrator',
      () => raw('quill-narrator', 'quill-narrator-std', { prompt: 'Once upon a time there was a sandbox.' }),
      null,
    ],
    [
      'voice-clone',
      'echoform-twin',
      (v) => raw('echoform-twin', 'echoform-twin-1', { prompt: 'Say this in my voice.', voice_sample: v }),
      null,
    ],
    [
      'voice-clone',
      'northwind-echo',
      (v) => raw('northwind-echo', 'northwind-echo-1', { prompt: 'Echo this line.', sample_audio: v }),
      null,
    ],
    [
      'sound-effect',
      'echoform-foley',
      () => raw('echoform-foley', 'echoform-foley-1', { prompt: 'a door creaks', duration: '2' }),
      2,
    ],
    [
      'sound-effect',
      'pixelmoss-blips',
      () => raw('pixelmoss-blips', 'pixelmoss-blips-1', { prompt: 'coin pickup' }),
      null,
    ],
    [
      'music',
      'quill-composer',
      () => raw('quill-composer', 'quill-composer-1', { prompt: 'calm piano', duration: '15' }),
      15,
    ],
    [
      'music',
      'echoform-score',
      () => raw('echoform-score', 'echoform-score-1', { prompt: 'a tense cue', mood: 'tense' }),
      null,
    ],
  ];
  for (const [category, model, body, seconds] of cases) {
    it(`${category} (${model}): an audio/* file whose magic bytes match its Content-Type and that decodes`, async () => {
      const sample = category === 'voice-clone' ? await uploadReady(h, makeWav(3, 220), 'audio/wav') : '';
      const { file, url } = await runOutput(h, body(sample));
      expect(file.contentType.startsWith('audio/'), file.contentType).toBe(true);
      const kind = expectTruthful(file);
      expect(['wav', 'mp3', 'ogg']).toContain(kind);
      // api-notes §2: audio URLs pass through unchanged, so their extension is the true one.
      const ext = new URL(url).pathname.split('.').pop();
      expect({ wav: ['wav'], mp3: ['mp3'], ogg: ['ogg', 'oga'] }[kind as 'wav' | 'mp3' | 'ogg']).toContain(
        ext,
      );
      const decoded = await decodeMedia(file.bytes, kind);
      expect(decoded.seconds).toBeGreaterThan(0.2);
      if (seconds !== null) expect(Math.abs(decoded.seconds - seconds)).toBeLessThan(0.6);
    });
  }

  it('different voices give different speech for the same text', async () => {
    const say = (voice: string) =>
      raw('echoform-voice', 'echoform-voice-1', { prompt: 'The same words, twice.', voice });
    const a = await runOutput(h, say('aria'));
    const b = await runOutput(h, say('dmitri'));
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
  });

  it('different prompts give different audio', async () => {
    const a = await runOutput(
      h,
      raw('echoform-foley', 'echoform-foley-1', { prompt: 'rain on a roof', duration: '2' }),
    );
    const b = await runOutput(
      h,
      raw('echoform-foley', 'echoform-foley-1', { prompt: 'a dog barking', duration: '2' }),
    );
    expect(a.file.bytes.equals(b.file.bytes)).toBe(false);
  });
});
