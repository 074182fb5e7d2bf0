// The describe-image stand-in must read the picture (colour, light, shape, alpha) and speak the
// requested language, deterministically, without throwing on any image the API accepts.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESCRIBE_LANGUAGES, ImageDescriptionSchema } from '../../../contract/describe';
import type { DescribeLanguage } from '../../../contract/describe';
import { describeImage as describeWith, type DescribeResult } from '../core/describe/describe';
import { sampleImage } from './image-sample';

// core's describe logic over this folder's pixel reader, as the running sandbox composes them.
const describeImage = (bytes: Buffer, language: DescribeLanguage) =>
  describeWith(bytes, language, sampleImage);

const CJK = /[\u4e00-\u9fff]/;
const KANA = /[\u3040-\u30ff]/;
const CYRILLIC = /[\u0400-\u04ff]/;
const LATIN_WORD = /[A-Za-z]{3,}/;

function solid(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

function noise(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .png()
    .toBuffer();
}

function svg(body: string, width: number, height: number): Promise<Buffer> {
  const doc = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
  return sharp(Buffer.from(doc)).png().toBuffer();
}

async function cutoutPng(): Promise<Buffer> {
  const square = await sharp({
    create: { width: 100, height: 100, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: square, left: 100, top: 100 }])
    .png()
    .toBuffer();
}

const textFields = ['subject', 'composition', 'style', 'lighting', 'palette', 'mood'] as const;

let red: Buffer;
let darkBlue: Buffer;
let cutout: Buffer;
let textured: Buffer;
let gradient: Buffer;

beforeAll(async () => {
  red = await solid(256, 256, '#ff0000');
  darkBlue = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#14206e' } })
    .jpeg()
    .toBuffer();
  cutout = await cutoutPng();
  textured = await noise(300, 300);
  gradient = await svg(
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#102040"/><stop offset="1" stop-color="#f0f0ff"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/>',
    800,
    600,
  );
});

describe('describeImage: reading the picture (English)', () => {
  it('names the dominant colour from the pixels', async () => {
    const r = await describeImage(red, 'en');
    const b = await describeImage(darkBlue, 'en');
    expect(r.palette).toMatch(/\bred\b/);
    expect(r.palette).not.toMatch(/\bblue\b/);
    expect(b.palette).toMatch(/\bblue\b/);
    expect(b.palette).not.toMatch(/\bred\b/);
    expect(r.overallDescription).toMatch(/\bred\b/);
  });

  it('lights a bright image differently from a dark one', async () => {
    const r = await describeImage(red, 'en');
    const b = await describeImage(darkBlue, 'en');
    const white = await describeImage(await solid(64, 64, '#ffffff'), 'en');
    const black = await describeImage(await solid(64, 64, '#000000'), 'en');
    expect(r.lighting).not.toBe(b.lighting);
    expect(b.lighting).toMatch(/dim|dark/);
    expect(white.lighting).toMatch(/high-key|bright/);
    expect(black.lighting).toMatch(/dark|low-key/);
    expect(white.lighting).not.toBe(black.lighting);
    expect(white.mood).not.toBe(black.mood);
  });

  it('reads the format from the aspect ratio', async () => {
    expect((await describeImage(red, 'en')).composition).toMatch(/square.*1:1/);
    expect((await describeImage(darkBlue, 'en')).composition).toMatch(/landscape.*16:9/);
    expect((await describeImage(await solid(600, 900, '#808080'), 'en')).composition).toMatch(
      /portrait.*2:3/,
    );
    expect((await describeImage(await solid(1500, 500, '#808080'), 'en')).composition).toMatch(
      /panoramic.*3:1/,
    );
  });

  it('says where the brightness sits', async () => {
    const leftBright = await svg(
      '<rect width="400" height="400" fill="#111"/><rect width="130" height="400" fill="#fff"/>',
      400,
      400,
    );
    expect((await describeImage(leftBright, 'en')).composition).toMatch(/on the left/);
    expect((await describeImage(red, 'en')).composition).toMatch(/evenly/);
    expect((await describeImage(gradient, 'en')).composition).toMatch(/on the right/);
  });

  it('describes a transparent image as a cut-out subject, an opaque one not', async () => {
    const c = await describeImage(cutout, 'en');
    expect(c.subject).toMatch(/cut out.*transparent/);
    expect(c.palette).toMatch(/\bgreen\b/); // the subject's colour, not the empty background's
    const opaqueWithAlpha = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } },
    })
      .png()
      .toBuffer();
    expect((await describeImage(opaqueWithAlpha, 'en')).subject).not.toMatch(/transparent/);
    expect((await describeImage(red, 'en')).subject).not.toMatch(/transparent/);
  });

  it('tells flat, gradient, graphic and textured images apart; camera only for photo-like ones', async () => {
    const flat = await describeImage(red, 'en');
    const grad = await describeImage(gradient, 'en');
    const shapes = await describeImage(
      await svg(
        '<rect width="400" height="400" fill="#fff"/><circle cx="200" cy="200" r="100" fill="#000"/>',
        400,
        400,
      ),
      'en',
    );
    const tex = await describeImage(textured, 'en');
    expect(flat.style).toMatch(/flat/);
    expect(grad.style).toMatch(/gradient/);
    expect(shapes.style).toMatch(/graphic/);
    expect(shapes.subject).toMatch(/abstract/);
    expect(tex.style).toMatch(/detailed|textur/);
    expect(flat.camera).toBeNull();
    expect(grad.camera).toBeNull();
    expect(shapes.camera).toBeNull();
    expect(tex.camera).toMatch(/\d+ mm/);
    expect(tex.overallDescription).toContain(tex.camera);
  });

  it('builds overallDescription from the parts and matches the response schema', async () => {
    for (const img of [red, darkBlue, cutout, textured, gradient]) {
      const d = await describeImage(img, 'en');
      expect(ImageDescriptionSchema.safeParse({ credits: 1, ...d }).success).toBe(true);
      expect(d.overallDescription.length).toBeGreaterThan(20);
      for (const f of textFields) expect(d.overallDescription.toLowerCase()).toContain(d[f].toLowerCase());
    }
  });
});

describe('describeImage: languages', () => {
  const images = (): Buffer[] => [red, darkBlue, cutout, textured, gradient];
  const cache = new Map<DescribeLanguage, Promise<DescribeResult[]>>();

  function all(lang: DescribeLanguage): Promise<DescribeResult[]> {
    let hit = cache.get(lang);
    if (!hit) {
      hit = Promise.all(images().map((img) => describeImage(img, lang)));
      cache.set(lang, hit);
    }
    return hit;
  }

  it('fills every field in every language', async () => {
    for (const lang of DESCRIBE_LANGUAGES) {
      for (const d of await all(lang)) {
        expect(d.overallDescription.trim(), lang).not.toBe('');
        for (const f of textFields) expect(d[f].trim(), `${lang} ${f}`).not.toBe('');
      }
    }
  });

  it('writes Chinese, Japanese and Russian in their scripts, every field', async () => {
    for (const lang of ['zh', 'zh-TW', 'ja', 'ru'] as const) {
      const script = lang === 'ru' ? CYRILLIC : CJK;
      for (const d of await all(lang)) {
        expect(d.overallDescription, lang).toMatch(script);
        expect(d.overallDescription, lang).not.toMatch(LATIN_WORD);
        for (const f of textFields)
          expect(d[f], `${lang} ${f}`).toMatch(lang === 'ja' ? /[\u3040-\u30ff\u4e00-\u9fff]/ : script);
        if (d.camera) expect(d.camera, lang).not.toMatch(LATIN_WORD);
      }
    }
    for (const d of await all('ja')) expect(d.overallDescription).toMatch(KANA);
    for (const d of await all('zh')) expect(d.overallDescription).not.toMatch(KANA);
  });

  it('writes Traditional Chinese for zh-TW, Simplified for zh', async () => {
    const zh = await all('zh');
    const tw = await all('zh-TW');
    for (let i = 0; i < zh.length; i++) {
      const s = zh[i]!;
      const t = tw[i]!;
      expect(t.overallDescription).not.toBe(s.overallDescription);
      expect(s.composition).toContain('构图');
      expect(t.composition).toContain('構圖');
      expect(t.overallDescription).not.toMatch(/[构图区于调红蓝绿]/);
    }
  });

  it('writes French, Spanish, German and Portuguese, each distinct from English and each other', async () => {
    const latin = ['en', 'fr', 'es', 'de', 'pt'] as const;
    for (let i = 0; i < images().length; i++) {
      const texts = await Promise.all(latin.map(async (l) => (await all(l))[i]!));
      const overall = texts.map((d) => d.overallDescription);
      expect(new Set(overall).size).toBe(latin.length);
      for (const f of ['subject', 'style', 'lighting', 'mood'] as const) {
        expect(new Set(texts.map((d) => d[f])).size, f).toBe(latin.length);
      }
      for (const o of overall) expect(o).not.toMatch(/[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff]/);
    }
    const fr = await describeImage(red, 'fr');
    const es = await describeImage(red, 'es');
    const de = await describeImage(red, 'de');
    const pt = await describeImage(red, 'pt');
    expect(fr.palette).toMatch(/\brouge\b/);
    expect(es.palette).toMatch(/\brojo\b/);
    expect(de.palette).toMatch(/\bRot\b/);
    expect(pt.palette).toMatch(/\bvermelho\b/);
    expect((await describeImage(red, 'ru')).palette).toMatch(/красный/);
    expect((await describeImage(red, 'zh')).palette).toMatch(/红色/);
    expect((await describeImage(red, 'zh-TW')).palette).toMatch(/紅色/);
    expect((await describeImage(red, 'ja')).palette).toMatch(/赤/);
  });
});

describe('describeImage: robustness', () => {
  it('is deterministic', async () => {
    for (const img of [red, textured, cutout]) {
      for (const lang of ['en', 'ja', 'ru'] as const) {
        expect(await describeImage(img, lang)).toEqual(await describeImage(img, lang));
      }
    }
  });

  it('handles the formats and oddities the API accepts', async () => {
    const base = sharp({
      create: {
        width: 120,
        height: 80,
        channels: 3,
        background: '#000000',
        noise: { type: 'gaussian', mean: 100, sigma: 40 },
      },
    });
    const frame = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const inputs: Record<string, Buffer> = {
      webp: await base.clone().webp().toBuffer(),
      gif: await base.clone().gif().toBuffer(),
      animatedGif: await sharp([frame, frame, frame], { join: { animated: true } })
        .gif()
        .toBuffer(),
      jpeg: await base.clone().jpeg().toBuffer(),
      grey: await base.clone().greyscale().png().toBuffer(),
      png16: await base.clone().png().toColourspace('rgb16').toBuffer(),
      onePixel: await solid(1, 1, '#ffcc00'),
      fullyTransparent: await sharp({
        create: { width: 10, height: 10, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
      })
        .png()
        .toBuffer(),
      large: await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#446688' } })
        .jpeg()
        .toBuffer(),
    };
    for (const [name, img] of Object.entries(inputs)) {
      const d = await describeImage(img, 'de');
      expect(d.overallDescription.trim(), name).not.toBe('');
      expect(ImageDescriptionSchema.safeParse({ credits: 1, ...d }).success, name).toBe(true);
    }
    expect((await describeImage(inputs.animatedGif!, 'en')).composition).toMatch(/4:3/);
    expect((await describeImage(inputs.grey!, 'en')).palette).toMatch(/monochrome/);
  });

  it('respects EXIF orientation for the format', async () => {
    const rotated = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await describeImage(rotated, 'en')).composition).toMatch(/portrait.*2:3/);
  });

  it('rejects bytes that are not an image', async () => {
    await expect(describeImage(Buffer.from('not an image at all'), 'en')).rejects.toThrow(
      /not a decodable image/,
    );
  });
});
