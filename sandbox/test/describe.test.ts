import { beforeEach, describe, expect, it } from 'vitest';
import { expectError, useSandbox } from './harness';
import { advance, balance, makeImage, makeWav, uploadReady, withMarker } from './fixtures';

// api-notes §2 "Image description", api-notes §4 POST /describe-image, api-notes §7 errors, api-notes §8 (10/min, 1 credit), README triggers.

const h = useSandbox();

const FIELDS = ['subject', 'composition', 'style', 'lighting', 'palette', 'mood'] as const;
const HAN = /[\u4e00-\u9fff]/;
const KANA = /[\u3040-\u30ff]/;
const CYRILLIC = /[\u0400-\u04ff]/;
const NON_LATIN = /[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/;

let imageUrl = '';
beforeEach(async () => {
  imageUrl = await uploadReady(h, await makeImage({ width: 160, height: 120 }), 'image/png');
});

const describeImage = (body: unknown, key = 'personal') =>
  h.api('POST', '/describe-image', { key, json: body });

function expectDescription(d: any) {
  expect(d.credits).toBe(1);
  expect(typeof d.overallDescription).toBe('string');
  expect(d.overallDescription.trim().length).toBeGreaterThan(0);
  for (const f of FIELDS) expect(typeof d[f], f).toBe('string');
  expect(d.camera === null || typeof d.camera === 'string').toBe(true);
}

/** Every non-empty text field of a description. */
const texts = (d: any): string[] =>
  [d.overallDescription, ...FIELDS.map((f) => d[f]), d.camera].filter(
    (t) => typeof t === 'string' && t.trim().length > 0,
  );

describe('POST /describe-image', () => {
  it('describes an uploaded image: 200, credits 1, every field, 1 credit charged', async () => {
    const before = await balance(h);
    const r = await describeImage({ imageUrl });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expectDescription(r.body);
    // Default language is English: no other script.
    for (const t of texts(r.body)) expect(t).not.toMatch(NON_LATIN);
    expect(await balance(h)).toBe(before - 1);
  });

  it('writes every field in each of the nine languages', async () => {
    const out: Record<string, any> = {};
    for (const language of ['en', 'zh', 'zh-TW', 'ja', 'fr', 'es', 'de', 'pt', 'ru']) {
      const r = await describeImage({ imageUrl, language });
      expect(r.status, `${language}: ${JSON.stringify(r.body)}`).toBe(200);
      expectDescription(r.body);
      out[language] = r.body;
    }
    for (const t of texts(out.en)) expect(t).not.toMatch(NON_LATIN);
    for (const lang of ['zh', 'zh-TW']) {
      for (const t of texts(out[lang])) expect(t, `${lang}: ${t}`).toMatch(HAN);
      for (const t of texts(out[lang])) expect(t, `${lang}: ${t}`).not.toMatch(KANA);
    }
    expect(out['zh-TW'].overallDescription).not.toBe(out.zh.overallDescription);
    expect(out.ja.overallDescription).toMatch(KANA);
    for (const t of texts(out.ja)) expect(t, `ja: ${t}`).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    for (const t of texts(out.ru)) expect(t, `ru: ${t}`).toMatch(CYRILLIC);
    const latin = ['en', 'fr', 'es', 'de', 'pt'];
    for (const lang of latin)
      for (const t of texts(out[lang])) expect(t, `${lang}: ${t}`).not.toMatch(NON_LATIN);
    for (const lang of ['fr', 'es', 'de', 'pt']) {
      expect(out[lang].overallDescription, lang).not.toBe(out.en.overallDescription);
      // Not just the overall prompt: the detail fields are translated too (most of them differ from English;
      // a field of colour codes may legitimately stay the same).
      const filled = FIELDS.filter((f) => out[lang][f] !== '');
      const translated = filled.filter((f) => out[lang][f] !== out.en[f]);
      expect(translated.length, `${lang}: fields left in English`).toBeGreaterThanOrEqual(
        Math.ceil(filled.length / 2),
      );
    }
    const overall = new Set(latin.map((l) => out[l].overallDescription));
    expect(overall.size).toBe(latin.length);
  });

  it('charges 1 credit per call, on personal and team balances', async () => {
    const before = await balance(h);
    for (let i = 0; i < 3; i++) expect((await describeImage({ imageUrl })).status).toBe(200);
    expect(await balance(h)).toBe(before - 3);
    const teamImage = await uploadReady(h, await makeImage(), 'image/png', 'team');
    const teamBefore = await balance(h, 'team');
    expect((await describeImage({ imageUrl: teamImage }, 'team')).status).toBe(200);
    expect(await balance(h, 'team')).toBe(teamBefore - 1);
  });

  it('describes every uploadable image type (JPEG, WebP, GIF)', async () => {
    for (const format of ['jpeg', 'webp', 'gif'] as const) {
      const url = await uploadReady(
        h,
        await makeImage({ format, width: 120, height: 90 }),
        `image/${format}`,
      );
      const r = await describeImage({ imageUrl: url });
      expect(r.status, `${format}: ${JSON.stringify(r.body)}`).toBe(200);
      expectDescription(r.body);
    }
  });

  it('describes different images differently', async () => {
    const red = await uploadReady(h, await makeImage({ hue: 0, width: 200, height: 100 }), 'image/png');
    const blue = await uploadReady(
      h,
      await makeImage({ hue: 230, width: 100, height: 200, format: 'jpeg' }),
      'image/jpeg',
    );
    const a = (await describeImage({ imageUrl: red })).body;
    const b = (await describeImage({ imageUrl: blue })).body;
    expectDescription(a);
    expectDescription(b);
    expect(JSON.stringify(texts(a))).not.toBe(JSON.stringify(texts(b)));
  });

  it('400 invalid_payload for external URLs, non-images and a missing imageUrl; nothing charged', async () => {
    const before = await balance(h);
    const ext = await describeImage({ imageUrl: 'https://example.com/a.png' });
    expectError(ext, 400, 'invalid_payload');
    expectError(
      await describeImage({ imageUrl: `${h.origin}/cdn/uploads/upl_nothing.png` }),
      400,
      'invalid_payload',
    );
    expectError(await describeImage({}), 400, 'invalid_payload');
    const audio = await uploadReady(h, makeWav(1), 'audio/wav');
    expectError(await describeImage({ imageUrl: audio }), 400, 'invalid_payload');
    expectError(
      await h.api('POST', '/describe-image', {
        body: 'not json',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'invalid_payload',
    );
    expect(await balance(h)).toBe(before);
  });

  it('422 policy_violation for a SANDBOX-REFUSE image, with the credit refunded', async () => {
    const refuse = await uploadReady(h, withMarker(await makeImage(), 'SANDBOX-REFUSE'), 'image/png');
    const before = await balance(h);
    const r = await describeImage({ imageUrl: refuse });
    expectError(r, 422, 'policy_violation');
    expect(await balance(h)).toBe(before);
  });

  it('upstream failures are refunded: 429 upstream_rate_limited, 503 vision_unavailable (README triggers)', async () => {
    const busy = await uploadReady(h, withMarker(await makeImage(), 'SANDBOX-UPSTREAM'), 'image/png');
    const down = await uploadReady(
      h,
      withMarker(await makeImage({ format: 'jpeg' }), 'SANDBOX-VISION-DOWN'),
      'image/jpeg',
    );
    const before = await balance(h);
    expectError(await describeImage({ imageUrl: busy }), 429, 'upstream_rate_limited');
    expectError(await describeImage({ imageUrl: down }), 503, 'vision_unavailable');
    expect(await balance(h)).toBe(before);
  });

  it('402 insufficient_credits for the broke key, nothing charged', async () => {
    const own = await uploadReady(h, await makeImage(), 'image/png', 'broke');
    const r = await describeImage({ imageUrl: own }, 'broke');
    expectError(r, 402, 'insufficient_credits');
    expect(await balance(h, 'broke')).toBe(0);
  });

  it('402 arrears, 403 token_project_unbound, 403 account_banned, 401 without a key', async () => {
    expectError(await describeImage({ imageUrl }, 'arrears'), 402, 'arrears');
    expectError(await describeImage({ imageUrl }, 'unbound'), 403, 'token_project_unbound');
    expectError(await describeImage({ imageUrl }, 'banned'), 403, 'account_banned');
    expectError(await describeImage({ imageUrl }, null as unknown as string), 401, 'missing_token');
    expectError(await describeImage({ imageUrl }, 'revoked'), 401, 'invalid_token');
  });

  it('10 calls per minute, then 429 rate_limited with Retry-After and no charge', async () => {
    const before = await balance(h);
    for (let i = 0; i < 10; i++) {
      const r = await describeImage({ imageUrl });
      expect(r.status, `call ${i + 1}: ${JSON.stringify(r.body)}`).toBe(200);
    }
    const over = await describeImage({ imageUrl });
    expectError(over, 429, 'rate_limited');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(await balance(h)).toBe(before - 10);
    await advance(h, 61_000);
    expect((await describeImage({ imageUrl })).status).toBe(200);
  });
});
