import { describe, expect, it } from 'vitest';
import { expectError, useSandbox } from './harness';
import {
  advance,
  balance,
  finish,
  makeImage,
  makeVideo,
  makeWav,
  median,
  quote,
  raw,
  spentToday,
  submit,
  uploadReady,
  uploadVideoReady,
} from './fixtures';

// api-notes §2 "Quote", api-notes §4 POST /quote, api-notes §8 limits. Prices come from the sandbox's catalog fixture.

// Tasks of 1.2 s instead of the harness's 300 ms, so the run durations behind estimatedSeconds differ by whole
// seconds and real-time jitter on a loaded machine cannot blur them. Tests move the clock instead of waiting.
const h = useSandbox({ taskMs: 1200 });

const canvas = (params: Record<string, unknown>) =>
  raw('lumen-canvas', 'lumen-canvas-v2', { prompt: 'a red fox', ...params });

/** api-notes §2 cost rule, from the breakdown alone. */
function expectConsistent(q: any) {
  const b = q.breakdown;
  for (const f of ['base', 'multiplier', 'surcharges', 'basePrice']) expect(typeof b[f], f).toBe('number');
  expect(typeof b.pricingKey).toBe('string');
  expect(b.pricingKey.length).toBeGreaterThan(0);
  expect(typeof b.minPriceApplied).toBe('boolean');
  const computed = Math.ceil(Math.round((b.base * b.multiplier + b.surcharges + b.basePrice) * 1e4) / 1e4);
  if (b.minPriceApplied) expect(q.credits).toBeGreaterThan(computed);
  else expect(q.credits).toBe(computed);
  expect(Number.isInteger(q.credits)).toBe(true);
}

describe('POST /quote: response shape', () => {
  it('prices a raw model with every Quote field', async () => {
    const r = await quote(h, canvas({}));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      credits: 4,
      estimatedSeconds: null,
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v2',
      modelName: 'Lumen Canvas',
    });
    expect(r.body.breakdown).toMatchObject({
      base: 4,
      multiplier: 1,
      surcharges: 0,
      basePrice: 0,
      minPriceApplied: false,
    });
    expectConsistent(r.body);
  });

  it('prices an AI tool through its bound model and fixed params (upscale-4x: 4x costs double)', async () => {
    const img = await uploadReady(h, await makeImage(), 'image/png');
    const r = await quote(h, { aiTool: 'upscale-4x', params: { image: img } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      modelId: 'pixelmoss-upscale',
      versionId: 'pixelmoss-upscale-1',
      credits: 6,
    });
    expect(r.body.breakdown.multiplier).toBe(2);
    expectConsistent(r.body);
    const rawScale2 = await quote(
      h,
      raw('pixelmoss-upscale', 'pixelmoss-upscale-1', { image: img, scale: '2' }),
    );
    expect(rawScale2.body.credits).toBe(3);
  });

  it('prices a template with its markup on top of the same model price', async () => {
    const t = await quote(h, { template: 'neon-city-poster', params: {} });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body).toMatchObject({ modelId: 'lumen-canvas', versionId: 'lumen-canvas-v3' });
    expectConsistent(t.body);
    // The same payload on the raw path (the template's fixed params), without the markup.
    const m = await quote(
      h,
      raw('lumen-canvas', 'lumen-canvas-v3', {
        prompt: 'Neon city street',
        style: 'photographic',
        resolution: '1K',
        num_images: 1,
        aspect_ratio: '3:4',
      }),
    );
    expect(m.status).toBe(200);
    expect(t.body.credits).toBeGreaterThan(m.body.credits);
    expect(t.body.credits - m.body.credits).toBe(2);
  });

  it('a community template is priced too, with its own markup', async () => {
    const img = await uploadReady(h, await makeImage(), 'image/png');
    const t = await quote(h, { template: 'watercolor-pets', params: { image: img } });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const m = await quote(
      h,
      raw('lumen-canvas', 'lumen-canvas-v2', { prompt: 'pet', image: img, resolution: '1K' }),
    );
    expect(t.body.credits).toBeGreaterThan(m.body.credits);
  });
});

describe('POST /quote: the price follows the payload', () => {
  it('changes with resolution (multiplier) and count (num_images)', async () => {
    const base = (await quote(h, canvas({ resolution: '1K', num_images: 1 }))).body;
    const hi = (await quote(h, canvas({ resolution: '2K', num_images: 1 }))).body;
    const lo = (await quote(h, canvas({ resolution: '512', num_images: 1 }))).body;
    const three = (await quote(h, canvas({ resolution: '1K', num_images: 3 }))).body;
    expect([lo.credits, base.credits, hi.credits, three.credits]).toEqual([2, 4, 6, 12]);
    expect(hi.breakdown.multiplier).toBe(1.5);
    expect(lo.breakdown.multiplier).toBe(0.5);
    expect(three.breakdown.base).toBe(12);
    for (const q of [base, hi, lo, three]) expectConsistent(q);
  });

  it('changes with surcharges (prompt enhance adds 2)', async () => {
    const off = (await quote(h, canvas({ enhance: 'off' }))).body;
    const on = (await quote(h, canvas({ enhance: 'on' }))).body;
    expect(on.credits - off.credits).toBe(2);
    expect(on.breakdown.surcharges).toBe(2);
    expectConsistent(on);
  });

  it('changes with output duration and video resolution', async () => {
    const dream = (p: Record<string, unknown>) =>
      raw('halcyon-dream', 'halcyon-dream-1-5', { prompt: 'waves', ...p });
    const five = (await quote(h, dream({ duration: '5', resolution: '720p' }))).body;
    const ten = (await quote(h, dream({ duration: '10', resolution: '720p' }))).body;
    const fiveHd = (await quote(h, dream({ duration: '5', resolution: '1080p' }))).body;
    expect(five.credits).toBe(13); // ceil(2.5 x 5)
    expect(ten.credits).toBe(25);
    expect(fiveHd.credits).toBe(20); // 12.5 x 1.6
    for (const q of [five, ten, fiveHd]) expectConsistent(q);
  });

  it('adds a basePrice where the model has one', async () => {
    const q = (await quote(h, raw('northwind-reel', 'northwind-reel-1', { prompt: 'city', duration: 4 })))
      .body;
    expect(q.breakdown.basePrice).toBe(5);
    expect(q.credits).toBe(17);
    expectConsistent(q);
  });

  it('changes with the number of characters for a 1k_chars model', async () => {
    const narrator = (n: number) => raw('quill-narrator', 'quill-narrator-std', { prompt: 'a'.repeat(n) });
    const k1 = (await quote(h, narrator(1000))).body;
    const k2 = (await quote(h, narrator(2000))).body;
    const k25 = (await quote(h, narrator(2500))).body;
    expect(k1.credits).toBe(3); // ceil(2.4)
    expect(k2.credits).toBe(5); // ceil(4.8)
    expect(k25.credits).toBe(6);
    expect(k2.breakdown.base).toBeCloseTo(4.8, 4);
    for (const q of [k1, k2, k25]) expectConsistent(q);
  });

  it('applies the minimum price to a tiny input (minPriceApplied)', async () => {
    const tiny = (
      await quote(h, raw('echoform-voice', 'echoform-voice-1', { prompt: 'Hi there.', voice: 'aria' }))
    ).body;
    expect(tiny.breakdown.minPriceApplied).toBe(true);
    expect(tiny.credits).toBe(2);
    expectConsistent(tiny);
    const big = (
      await quote(h, raw('echoform-voice', 'echoform-voice-1', { prompt: 'x'.repeat(3000), voice: 'aria' }))
    ).body;
    expect(big.breakdown.minPriceApplied).toBe(false);
    expect(big.credits).toBe(9);
    const pop = (
      await quote(h, raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', resolution: '512' }))
    ).body;
    expect(pop.breakdown.minPriceApplied).toBe(true);
    expect(pop.credits).toBe(2);
  });

  it('prices per second of input audio (two WAV uploads of different lengths)', async () => {
    const face = await uploadReady(h, await makeImage(), 'image/png');
    const short = await uploadReady(h, makeWav(2), 'audio/wav');
    const long = await uploadReady(h, makeWav(5), 'audio/wav');
    const talk = (speech: string) => raw('vireo-talk', 'vireo-talk-1', { face, speech });
    const a = (await quote(h, talk(short))).body;
    const b = (await quote(h, talk(long))).body;
    expect(a.breakdown.base).toBeCloseTo(4, 1); // 2 credits x 2 s
    expect(b.breakdown.base).toBeCloseTo(10, 1); // 2 credits x 5 s
    expect(a.credits).toBe(4);
    expect(b.credits).toBe(10);
    expectConsistent(a);
    expectConsistent(b);
  });

  it('prices per second of input video (two MP4 uploads of different lengths)', async () => {
    const v2 = await uploadVideoReady(h, await makeVideo(2));
    const v6 = await uploadVideoReady(h, await makeVideo(6));
    const ext = (video: string) => raw('halcyon-extend', 'halcyon-extend-1', { prompt: 'more', video });
    const a = (await quote(h, ext(v2))).body;
    const b = (await quote(h, ext(v6))).body;
    expect(a.breakdown.base).toBeGreaterThan(1.8); // 1 credit x ~2 s
    expect(a.breakdown.base).toBeLessThan(2.3);
    expect(b.breakdown.base).toBeGreaterThan(5.8); // 1 credit x ~6 s
    expect(b.breakdown.base).toBeLessThan(6.3);
    expect(b.breakdown.basePrice).toBe(3);
    expect(b.credits - a.credits).toBeGreaterThanOrEqual(3);
    expectConsistent(a);
    expectConsistent(b);
  });

  it('the later charge equals the quote', async () => {
    const body = raw('halcyon-dream', 'halcyon-dream-2', {
      prompt: 'a forest',
      duration: '10',
      enhance: 'on',
    });
    const q = await quote(h, body);
    const before = await balance(h);
    const t = await submit(h, body);
    expect(t.status).toBe(200);
    expect(await balance(h)).toBe(before - q.body.credits);
    const done = await finish(h, t.body.taskId);
    expect(done.body.creditsCharged).toBe(q.body.credits);
  });
});

describe('POST /quote: estimatedSeconds', () => {
  describe('with runs of a minute', () => {
    // A sandbox of its own whose runs take a minute (fillers fail after 30 s): the scenario's long and short
    // runs differ by tens of seconds, so the real time its requests take on a busy machine cannot blur them.
    const e = useSandbox({ taskMs: 60_000 });
    it('is null without history, then the median of the last 10 successful runs of that model', async () => {
      const body = raw('pixelmoss-blips', 'pixelmoss-blips-1', { prompt: 'coin' });
      expect((await quote(e, body)).body.estimatedSeconds).toBeNull();

      // History of 12 runs, oldest first: 2 short, 5 long (queued behind [fail] fillers of the same user on
      // another key), 5 short. All 12 -> median short; the last 10 -> halfway between short and long.
      const ids: string[] = [];
      const one = async (prompt: string, fillers: number) => {
        for (let f = 0; f < fillers; f++) {
          await submit(
            e,
            raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: `filler [fail] ${f}` }),
            'personal2',
          );
        }
        ids.push((await submit(e, { ...body, params: { prompt } })).body.taskId);
        await advance(e, 400_000);
      };
      for (let i = 0; i < 2; i++) await one(`short ${i}`, 0);
      for (let i = 0; i < 5; i++) await one(`long ${i}`, 9);
      for (let i = 0; i < 5; i++) await one(`short ${i + 2}`, 0);
      const runs: Array<{ end: number; secs: number }> = [];
      for (const id of ids) {
        const t = (await e.api('GET', `/tasks/${id}`)).body;
        expect(t.status).toBe('succeeded');
        const end = Date.parse(t.completedAt);
        runs.push({ end, secs: (end - Date.parse(t.createdAt)) / 1000 });
      }
      runs.sort((a, b) => a.end - b.end);
      const last10 = median(runs.slice(-10).map((r) => r.secs));
      const all12 = median(runs.map((r) => r.secs));
      expect(Math.abs(last10 - all12)).toBeGreaterThan(0.5); // the scenario tells the two apart

      const q = await quote(e, body);
      expect(typeof q.body.estimatedSeconds).toBe('number');
      expect(Math.abs(q.body.estimatedSeconds - last10)).toBeLessThanOrEqual(0.06);
      // Another model still has no history.
      expect((await quote(e, canvas({}))).body.estimatedSeconds).toBeNull();
    });
  });

  it('failed and cancelled runs do not count as history', async () => {
    const body = raw('pixelmoss-blips', 'pixelmoss-blips-1', { prompt: 'boom [fail]' });
    const f = await submit(h, body);
    const c = await submit(h, { ...body, params: { prompt: 'boom [cancel]' } });
    await finish(h, f.body.taskId);
    await finish(h, c.body.taskId);
    expect((await quote(h, body)).body.estimatedSeconds).toBeNull();
  });
});

describe('POST /quote: never charges', () => {
  it('leaves balance and daily spend alone and creates no task', async () => {
    const before = await balance(h);
    const spent = await spentToday(h);
    for (let i = 0; i < 5; i++) {
      const r = await quote(h, raw('halcyon-dream', 'halcyon-dream-2', { prompt: 'x', duration: '10' }));
      expect(r.status).toBe(200);
      expect(r.body.taskId).toBeUndefined();
    }
    expect(await balance(h)).toBe(before);
    expect(await spentToday(h)).toBe(spent);
    // A broke key can quote: nothing is reserved.
    const broke = await quote(h, canvas({}), 'broke');
    expect(broke.status, JSON.stringify(broke.body)).toBe(200);
    expect(broke.body.credits).toBe(4);
  });

  it('still prices a [blocked] prompt (moderation happens at submit)', async () => {
    const r = await quote(h, canvas({ prompt: 'something [blocked]' }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.credits).toBe(4);
  });
});

describe('POST /quote: errors', () => {
  it('400 invalid_payload for two selectors, no selector, non-object params, interfaceId without versionId', async () => {
    expectError(await quote(h, { ...canvas({}), aiTool: 'upscale-4x' }), 400, 'invalid_payload');
    expectError(
      await quote(h, { template: 'neon-city-poster', aiTool: 'upscale-4x', params: {} }),
      400,
      'invalid_payload',
    );
    expectError(await quote(h, { params: { prompt: 'x' } }), 400, 'invalid_payload');
    expectError(
      await quote(h, { interfaceId: 'lumen-canvas', versionId: 'lumen-canvas-v2', params: 'prompt=x' }),
      400,
      'invalid_payload',
    );
    expectError(
      await quote(h, { interfaceId: 'lumen-canvas', versionId: 'lumen-canvas-v2', params: ['x'] }),
      400,
      'invalid_payload',
    );
    expectError(
      await quote(h, { interfaceId: 'lumen-canvas', params: { prompt: 'x' } }),
      400,
      'invalid_payload',
    );
    const notJson = await h.api('POST', '/quote', {
      body: '{nope',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(notJson, 400, 'invalid_payload');
  });

  it('400 missing_required_params lists each missing param with id, type and required', async () => {
    const r = await quote(h, raw('northwind-inpaint', 'northwind-inpaint-1', { prompt: 'a hat' }));
    expectError(r, 400, 'missing_required_params');
    const params = r.body.error.params as any[];
    expect(Array.isArray(params)).toBe(true);
    expect(params.map((p) => p.id).sort()).toEqual(['image_url', 'mask_url']);
    const byId = Object.fromEntries(params.map((p) => [p.id, p]));
    expect(byId.image_url).toMatchObject({ type: 'image_url', required: true });
    expect(byId.mask_url).toMatchObject({ type: 'mask_url', required: true });
    for (const p of params) {
      for (const f of ['default', 'options', 'constraints']) expect(p, `${p.id}.${f}`).toHaveProperty(f);
    }
    // A required prompt that is absent is listed too.
    const np = await quote(h, raw('lumen-canvas', 'lumen-canvas-v2', {}));
    expectError(np, 400, 'missing_required_params');
    expect(np.body.error.params.map((p: any) => p.id)).toContain('prompt');
    expect(np.body.error.params.find((p: any) => p.id === 'prompt').required).toBe(true);
  });

  it('400 invalid_payload with error.param for a param the template or tool fixes (same rules as POST /tasks)', async () => {
    const t = await quote(h, { template: 'neon-city-poster', params: { prompt: 'my own' } });
    expectError(t, 400, 'invalid_payload');
    expect(t.body.error.param).toBe('prompt');
    const img = await uploadReady(h, await makeImage(), 'image/png');
    const a = await quote(h, { aiTool: 'upscale-4x', params: { image: img, scale: '2' } });
    expectError(a, 400, 'invalid_payload');
    expect(a.body.error.param).toBe('scale');
  });

  it('403 model_not_public for a model not exposed publicly', async () => {
    const r = await quote(h, raw('lumen-canvas-labs', 'lumen-canvas-labs-0', { prompt: 'x' }));
    expectError(r, 403, 'model_not_public');
    expect(r.body.error.type).toBe('permission_error');
  });

  it('404 unknown_model for an unknown model, an unknown version and a disabled model', async () => {
    expectError(await quote(h, raw('no-such-model', 'v1', { prompt: 'x' })), 404, 'unknown_model');
    expectError(
      await quote(h, raw('lumen-canvas', 'lumen-canvas-v9', { prompt: 'x' })),
      404,
      'unknown_model',
    );
    expectError(
      await quote(h, raw('lumen-canvas', 'northwind-aurora-1', { prompt: 'x' })),
      404,
      'unknown_model',
    );
    expectError(
      await quote(h, raw('halcyon-dream-legacy', 'halcyon-dream-1-0', { prompt: 'x' })),
      404,
      'unknown_model',
    );
  });

  it('404 unknown_ai_tool for unknown and unlisted tools', async () => {
    expectError(await quote(h, { aiTool: 'no-such-tool', params: {} }), 404, 'unknown_ai_tool');
    expectError(await quote(h, { aiTool: 'retro-vhs', params: {} }), 404, 'unknown_ai_tool'); // inactive
    expectError(await quote(h, { aiTool: 'sky-replace', params: {} }), 404, 'unknown_ai_tool'); // no opt-in
    expectError(await quote(h, { aiTool: 'dream-clip', params: {} }), 404, 'unknown_ai_tool'); // model disabled
  });

  it('404 unknown_template for unknown and unlisted templates', async () => {
    expectError(await quote(h, { template: 'no-such-template', params: {} }), 404, 'unknown_template');
    for (const slug of [
      'autumn-leaves-draft',
      'cyber-samurai',
      'celebrity-lookalike',
      'holiday-card-2023',
      'dream-trailer',
    ]) {
      expectError(await quote(h, { template: slug, params: {} }), 404, 'unknown_template');
    }
  });

  it('keys: banned 403 account_banned; unbound and arrears keys can still quote (nothing lands or is charged)', async () => {
    expectError(await quote(h, canvas({}), 'banned'), 403, 'account_banned');
    const unbound = await quote(h, canvas({}), 'unbound');
    expect(unbound.status, JSON.stringify(unbound.body)).toBe(200);
    expect(unbound.body.credits).toBe(4);
    const arrears = await quote(h, canvas({}), 'arrears');
    expect(arrears.status, JSON.stringify(arrears.body)).toBe(200);
    expect(arrears.body.credits).toBe(4);
  });

  it('400 missing_required_params for a template input without a default', async () => {
    const r = await quote(h, { template: 'logo-mark', params: {} });
    expectError(r, 400, 'missing_required_params');
    expect(r.body.error.params.map((p: any) => p.id)).toEqual(['brand_text']);
    const ok = await quote(h, { template: 'logo-mark', params: { brand_text: 'ACME' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ modelId: 'quill-vector', versionId: 'quill-vector-1', credits: 9 });
  });

  it('401 without a valid key', async () => {
    expectError(await h.api('POST', '/quote', { key: null, json: canvas({}) }), 401, 'missing_token');
    expectError(await h.api('POST', '/quote', { key: 'expired', json: canvas({}) }), 401, 'invalid_token');
  });

  it('429 rate_limited after 120 quotes in a minute, with Retry-After; the next window is open again', async () => {
    const body = canvas({});
    const results = await Promise.all(Array.from({ length: 120 }, () => quote(h, body)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const over = await quote(h, body);
    expectError(over, 429, 'rate_limited');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    await advance(h, 61_000);
    expect((await quote(h, body)).status).toBe(200);
  });
});
