import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { expectError, useSandbox } from './harness';
import {
  advance,
  balance,
  download,
  finish,
  makeImage,
  makeWav,
  quote,
  raw,
  spentToday,
  submit,
  uploadReady,
} from './fixtures';

// api-notes §3 task states, api-notes §4 POST /tasks rules 1-8 and GET /tasks/{id}, api-notes §5 auth, api-notes §8 limits,
// and the README decisions (insufficient_credits, refunds of failed/cancelled tasks, shared pools).

// Tasks of 1.2 s (dispatch 300 ms) instead of the harness's 300 ms. The concurrency and lifecycle checks,
// which sample the middle of each phase, run in sandboxes of their own with runs of a minute, so real time
// passing on a loaded machine cannot move a task into its next phase. Everything moves the clock instead of waiting.
const TASK_MS = 1200;
const h = useSandbox({ taskMs: TASK_MS });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const blips = (prompt = 'coin pickup') => raw('pixelmoss-blips', 'pixelmoss-blips-1', { prompt }); // 1 credit
const pop = (prompt = 'a cat') => raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt, resolution: '512' }); // 2 credits

describe('POST /tasks: selectors and presets (rules 1, 2, 3, 5)', () => {
  it('400 invalid_payload when more than one selector or none is sent', async () => {
    const img = await uploadReady(h, await makeImage(), 'image/png');
    expectError(
      await submit(h, { aiTool: 'upscale-4x', template: 'neon-city-poster', params: { image: img } }),
      400,
      'invalid_payload',
    );
    expectError(await submit(h, { ...pop(), template: 'neon-city-poster' }), 400, 'invalid_payload');
    expectError(await submit(h, { ...pop(), aiTool: 'upscale-4x' }), 400, 'invalid_payload');
    expectError(await submit(h, { params: { prompt: 'x' } }), 400, 'invalid_payload');
    expectError(
      await submit(h, { interfaceId: 'pixelmoss-pop', params: { prompt: 'x' } }),
      400,
      'invalid_payload',
    );
    expectError(
      await submit(h, { interfaceId: 'pixelmoss-pop', versionId: 'pixelmoss-pop-1' }),
      400,
      'invalid_payload',
    );
    expect(await spentToday(h)).toBe(0);
  });

  it('an AI tool resolves to its model and version and merges its fixed params; the charge is the quote', async () => {
    const img = await uploadReady(h, await makeImage(), 'image/png');
    const body = { aiTool: 'style-transfer', params: { image: img, style: 'anime' } };
    const q = await quote(h, body);
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body.credits).toBe(6); // lumen-canvas v3, fixed 1K x 1 image
    const before = await balance(h);
    const t = await submit(h, body);
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body).toMatchObject({ status: 'queued', modelId: 'lumen-canvas', versionId: 'lumen-canvas-v3' });
    expect(await balance(h)).toBe(before - 6);
    const done = await finish(h, t.body.taskId);
    expect(done.body.status).toBe('succeeded');
    expect(done.body.creditsCharged).toBe(6);
  });

  it('a template runs with its fixed prompt; omitted editable params fall back to their default (rule 5)', async () => {
    const body = { template: 'neon-city-poster', params: {} };
    const q = await quote(h, body);
    const t = await submit(h, body);
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body).toMatchObject({ modelId: 'lumen-canvas', versionId: 'lumen-canvas-v3' });
    const done = await finish(h, t.body.taskId);
    expect(done.body.status).toBe('succeeded');
    expect(done.body.creditsCharged).toBe(q.body.credits);
    // aspect_ratio defaults to 3:4: a portrait output.
    const file = await download(done.body.outputs[0].url);
    const meta = await sharp(file.bytes).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(3 / 4, 1);
  });

  it('400 invalid_payload with error.param when a param the tool or template fixes is sent (rule 3)', async () => {
    const img = await uploadReady(h, await makeImage(), 'image/png');
    const before = await balance(h);
    const p1 = await submit(h, { aiTool: 'style-transfer', params: { image: img, prompt: 'my own prompt' } });
    expectError(p1, 400, 'invalid_payload');
    expect(p1.body.error.param).toBe('prompt');
    const p2 = await submit(h, { aiTool: 'style-transfer', params: { image: img, resolution: '2K' } });
    expectError(p2, 400, 'invalid_payload');
    expect(p2.body.error.param).toBe('resolution');
    const p3 = await submit(h, { template: 'neon-city-poster', params: { style: 'anime' } });
    expectError(p3, 400, 'invalid_payload');
    expect(p3.body.error.param).toBe('style');
    const p4 = await submit(h, { template: 'drone-flyover', params: { duration: '10' } });
    expectError(p4, 400, 'invalid_payload');
    expect(p4.body.error.param).toBe('duration');
    expect(await balance(h)).toBe(before);
    // A tool that leaves the prompt editable accepts one.
    const ok = await submit(h, {
      aiTool: 'animate-photo',
      params: { first_frame: img, prompt: 'slow zoom' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('404 for unknown or unlisted model, tool and template; 403 for a model that is not public', async () => {
    expectError(await submit(h, raw('nope', 'nope-1', { prompt: 'x' })), 404, 'unknown_model');
    expectError(
      await submit(h, raw('halcyon-dream-legacy', 'halcyon-dream-1-0', { prompt: 'x' })),
      404,
      'unknown_model',
    );
    expectError(
      await submit(h, raw('pixelmoss-pop', 'pixelmoss-pop-9', { prompt: 'x' })),
      404,
      'unknown_model',
    );
    expectError(await submit(h, { aiTool: 'nope', params: {} }), 404, 'unknown_ai_tool');
    expectError(await submit(h, { aiTool: 'retro-vhs', params: {} }), 404, 'unknown_ai_tool');
    expectError(await submit(h, { template: 'nope', params: {} }), 404, 'unknown_template');
    expectError(await submit(h, { template: 'autumn-leaves-draft', params: {} }), 404, 'unknown_template');
    expectError(
      await submit(h, raw('lumen-canvas-labs', 'lumen-canvas-labs-0', { prompt: 'x' })),
      403,
      'model_not_public',
    );
    expect(await spentToday(h)).toBe(0);
  });
});

describe('POST /tasks: params validation (rule 4, api-notes §8 limits)', () => {
  it('400 missing_required_params with error.params (id, type, required) on raw, tool and template paths', async () => {
    const r1 = await submit(h, raw('lumen-keyframe', 'lumen-keyframe-1', { prompt: 'go' }));
    expectError(r1, 400, 'missing_required_params');
    expect(r1.body.error.params).toEqual([
      expect.objectContaining({ id: 'first_frame', type: 'first_frame', required: true }),
    ]);
    const r2 = await submit(h, { aiTool: 'style-transfer', params: { style: 'anime' } });
    expectError(r2, 400, 'missing_required_params');
    expect(r2.body.error.params.map((p: any) => p.id)).toEqual(['image']);
    expect(r2.body.error.params[0]).toMatchObject({ type: 'image', required: true });
    const r3 = await submit(h, { template: 'logo-mark', params: {} });
    expectError(r3, 400, 'missing_required_params');
    expect(r3.body.error.params[0]).toMatchObject({ id: 'brand_text', type: 'text', required: true });
    expect(await spentToday(h)).toBe(0);
  });

  it('400 invalid_payload param prompt over the model promptMaxLength and over 10,000', async () => {
    // northwind-aurora: promptMaxLength 1500.
    const at = await submit(h, raw('northwind-aurora', 'northwind-aurora-1', { prompt: 'p'.repeat(1500) }));
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    const over = await submit(h, raw('northwind-aurora', 'northwind-aurora-1', { prompt: 'p'.repeat(1501) }));
    expectError(over, 400, 'invalid_payload');
    expect(over.body.error.param).toBe('prompt');
    const huge = await submit(h, raw('halcyon-dream', 'halcyon-dream-1-5', { prompt: 'p'.repeat(10_001) }));
    expectError(huge, 400, 'invalid_payload');
    expect(huge.body.error.param).toBe('prompt');
  });

  it('params: at most 50 keys', async () => {
    const extra = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i}`, i]));
    const ok = await submit(h, raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', ...extra(49) }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const bad = await submit(h, raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', ...extra(50) }));
    expectError(bad, 400, 'invalid_payload');
  });

  it('params: string values at most 2,000 characters, even where the param definition allows more', async () => {
    const composer = (lyrics: string) =>
      raw('quill-composer', 'quill-composer-1', { prompt: 'a song', duration: '15', lyrics });
    const ok = await submit(h, composer('l'.repeat(2000)));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const bad = await submit(h, composer('l'.repeat(2001)));
    expectError(bad, 400, 'invalid_payload');
    expect(bad.body.error.param).toBe('lyrics');
    // The limit holds for any key of params, even one the model does not define.
    const other = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', note: 'n'.repeat(2001) }),
    );
    expectError(other, 400, 'invalid_payload');
    const fine = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', note: 'n'.repeat(2000) }),
    );
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });

  it('params: arrays at most 20 items', async () => {
    const ok = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', tags: Array(20).fill('t') }),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const bad = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', tags: Array(21).fill('t') }),
    );
    expectError(bad, 400, 'invalid_payload');
  });

  it('400 invalid_payload for media URLs not hosted by the service', async () => {
    const own = await uploadReady(h, await makeImage(), 'image/png');
    const foreign = await submit(
      h,
      raw('lumen-keyframe', 'lumen-keyframe-1', { prompt: 'go', first_frame: 'https://example.com/a.png' }),
    );
    expectError(foreign, 400, 'invalid_payload');
    expect(foreign.body.error.param).toBe('first_frame');
    const inList = await submit(
      h,
      raw('lumen-canvas', 'lumen-canvas-v2', {
        prompt: 'x',
        reference_images: [own, 'https://example.com/a.png'],
      }),
    );
    expectError(inList, 400, 'invalid_payload');
    const missing = await submit(
      h,
      raw('lumen-keyframe', 'lumen-keyframe-1', {
        prompt: 'go',
        first_frame: `${h.origin}/cdn/uploads/upl_nothing.png`,
      }),
    );
    expectError(missing, 400, 'invalid_payload');
    const local = await submit(
      h,
      raw('lumen-keyframe', 'lumen-keyframe-1', { prompt: 'go', first_frame: 'file:///tmp/a.png' }),
    );
    expectError(local, 400, 'invalid_payload');
    expect(await spentToday(h)).toBe(0);
    const good = await submit(
      h,
      raw('lumen-keyframe', 'lumen-keyframe-1', { prompt: 'go', first_frame: own }),
    );
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  });

  it('values are checked against the definition: enum options, voices, value types', async () => {
    const badRes = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', resolution: '8K' }),
    );
    expectError(badRes, 400, 'invalid_payload');
    expect(badRes.body.error.param).toBe('resolution');
    const badRatio = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', aspect_ratio: '16:9' }),
    );
    expectError(badRatio, 400, 'invalid_payload');
    expect(badRatio.body.error.param).toBe('aspect_ratio');
    const nested = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'cat', advanced: { a: 1 } }),
    );
    expectError(nested, 400, 'invalid_payload');
    const numPrompt = await submit(h, raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 42 }));
    expectError(numPrompt, 400, 'invalid_payload');
    // A voice is one of the options or a service-hosted audio URL (README).
    const tts = (voice: string) => raw('echoform-voice', 'echoform-voice-1', { prompt: 'Hello.', voice });
    expectError(await submit(h, tts('zed')), 400, 'invalid_payload');
    expectError(await submit(h, tts('https://example.com/voice.mp3')), 400, 'invalid_payload');
    expect((await submit(h, tts('cleo'))).status).toBe(200);
    const cloned = await uploadReady(h, makeWav(2), 'audio/wav');
    const withClone = await submit(h, tts(cloned));
    expect(withClone.status, JSON.stringify(withClone.body)).toBe(200);
  });

  it('422 moderation_blocked for a [blocked] prompt, with nothing charged (rule 6)', async () => {
    const before = await balance(h);
    const r = await submit(
      h,
      raw('pixelmoss-pop', 'pixelmoss-pop-1', { prompt: 'something [blocked] here' }),
    );
    expectError(r, 422, 'moderation_blocked');
    expect(await balance(h)).toBe(before);
    expect(await spentToday(h)).toBe(0);
    const tool = await submit(h, {
      aiTool: 'animate-photo',
      params: { first_frame: await uploadReady(h, await makeImage(), 'image/png'), prompt: '[blocked]' },
    });
    expectError(tool, 422, 'moderation_blocked');
    expect(await balance(h)).toBe(before);
  });
});

describe('POST /tasks: idempotency (rule 7)', () => {
  it('the same Idempotency-Key returns the original task, idempotent:true, charged once', async () => {
    const headers = { 'Idempotency-Key': 'order-42' };
    const before = await balance(h);
    const a = await submit(h, pop('first'), 'personal', headers);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.idempotent).toBeUndefined();
    const b = await submit(h, pop('first'), 'personal', headers);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.taskId).toBe(a.body.taskId);
    expect(b.body.idempotent).toBe(true);
    expect(b.body).toMatchObject({ modelId: 'pixelmoss-pop', versionId: 'pixelmoss-pop-1' });
    // README: even a different body returns the original task.
    const c = await submit(h, blips('other'), 'personal', headers);
    expect(c.body.taskId).toBe(a.body.taskId);
    expect(c.body.idempotent).toBe(true);
    expect(await balance(h)).toBe(before - 2);
    // After the task finished, a retry still answers with it.
    await finish(h, a.body.taskId);
    const d = await submit(h, pop('first'), 'personal', headers);
    expect(d.body.taskId).toBe(a.body.taskId);
    expect(await balance(h)).toBe(before - 2);
  });

  it('the same Idempotency-Key from another credential creates a new task', async () => {
    const headers = { 'Idempotency-Key': 'shared-key' };
    const before = await balance(h);
    const a = await submit(h, pop(), 'personal', headers);
    const b = await submit(h, pop(), 'personal2', headers);
    expect(b.status).toBe(200);
    expect(b.body.taskId).not.toBe(a.body.taskId);
    expect(b.body.idempotent).toBeUndefined();
    expect(await balance(h)).toBe(before - 4); // same user, two charges
    const t = await submit(h, pop(), 'team', headers);
    expect(t.body.taskId).not.toBe(a.body.taskId);
    expect(t.body.idempotent).toBeUndefined();
  });

  it('400 invalid_idempotency_key for an empty header or one over 256 characters; 256 is fine', async () => {
    const before = await balance(h);
    expectError(
      await submit(h, pop(), 'personal', { 'Idempotency-Key': '' }),
      400,
      'invalid_idempotency_key',
    );
    expectError(
      await submit(h, pop(), 'personal', { 'Idempotency-Key': 'k'.repeat(257) }),
      400,
      'invalid_idempotency_key',
    );
    expect(await balance(h)).toBe(before);
    const ok = await submit(h, pop(), 'personal', { 'Idempotency-Key': 'k'.repeat(256) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const one = await submit(h, pop(), 'personal', { 'Idempotency-Key': 'k' });
    expect(one.status).toBe(200);
  });

  it('retention is 24 hours: still the same task after 23 h, a new one after 25 h', async () => {
    const headers = { 'Idempotency-Key': 'daily-report' };
    const a = await submit(h, blips(), 'personal', headers);
    await advance(h, 23 * 3600_000);
    const b = await submit(h, blips(), 'personal', headers);
    expect(b.body.taskId).toBe(a.body.taskId);
    expect(b.body.idempotent).toBe(true);
    await advance(h, 2 * 3600_000);
    const before = await balance(h);
    const c = await submit(h, blips(), 'personal', headers);
    expect(c.status).toBe(200);
    expect(c.body.taskId).not.toBe(a.body.taskId);
    expect(c.body.idempotent).toBeUndefined();
    expect(await balance(h)).toBe(before - 1);
  });

  it('a refused request does not consume its Idempotency-Key: the corrected retry creates the task', async () => {
    const headers = { 'Idempotency-Key': 'fix-and-retry' };
    expectError(
      await submit(h, raw('pixelmoss-pop', 'pixelmoss-pop-1', {}), 'personal', headers),
      400,
      'missing_required_params',
    );
    expectError(await submit(h, pop('[blocked]'), 'personal', headers), 422, 'moderation_blocked');
    const ok = await submit(h, pop(), 'personal', headers);
    expect(ok.status).toBe(200);
    expect(ok.body.idempotent).toBeUndefined();
    const again = await submit(h, pop(), 'personal', headers);
    expect(again.body).toMatchObject({ taskId: ok.body.taskId, idempotent: true });
  });

  it('without the header there is no duplicate protection', async () => {
    const a = await submit(h, blips());
    const b = await submit(h, blips());
    expect(b.body.taskId).not.toBe(a.body.taskId);
  });
});

describe('tasks: charge and lifecycle (rule 8, api-notes §3)', () => {
  it('charges at submit: the balance drops by the quote right away; creditsCharged equals the quote', async () => {
    const body = raw('quill-vector', 'quill-vector-1-5', { prompt: 'a fox logo', detail: 'high' });
    const q = await quote(h, body);
    expect(q.body.credits).toBe(14);
    const before = await balance(h);
    const t = await submit(h, body);
    expect(t.status).toBe(200);
    expect(t.body.status).toBe('queued');
    expect(typeof t.body.taskId).toBe('string');
    expect(await balance(h)).toBe(before - 14);
    expect(await spentToday(h)).toBe(14);
    const done = await finish(h, t.body.taskId);
    expect(done.body.creditsCharged).toBe(14);
    expect(await balance(h)).toBe(before - 14);
  });

  describe('with runs of a minute', () => {
    const c = useSandbox({ taskMs: 60_000 });
    const getTaskC = async (id: string) => (await c.api('GET', `/tasks/${id}`)).body;
    it('goes queued -> running -> succeeded, with outputs[0].url, createdAt and completedAt', async () => {
      // Three tasks fill the personal slots, so the fourth is observably queued first. The clock moves to
      // the middle of each phase (15 s dispatch, runs of a minute), 25 s or more clear of the boundaries.
      for (let i = 0; i < 3; i++) await submit(c, pop(`filler ${i}`));
      const t = await submit(c, pop('watched'));
      const id = t.body.taskId as string;
      const seen: string[] = [];
      const check = (task: any) => {
        expect(task.taskId).toBe(id);
        expect(task.createdAt).toMatch(ISO);
        expect(Array.isArray(task.outputs)).toBe(true);
        expect(typeof task.creditsCharged).toBe('number');
        if (!['succeeded', 'failed', 'cancelled'].includes(task.status)) {
          expect(task.completedAt).toBeNull();
          expect(task.error ?? null).toBeNull();
        }
        seen.push(task.status);
        return task;
      };
      check(await getTaskC(id));
      await advance(c, 40_000);
      check(await getTaskC(id));
      await advance(c, 65_000);
      check(await getTaskC(id));
      await advance(c, 100_000);
      const last = check(await getTaskC(id));
      expect(seen).toEqual(['queued', 'queued', 'running', 'succeeded']);
      expect(last.completedAt).toMatch(ISO);
      expect(Date.parse(last.completedAt)).toBeGreaterThan(Date.parse(last.createdAt));
      expect(last.error ?? null).toBeNull();
      expect(last.outputs).toHaveLength(1);
      expect(last.outputs[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect((await download(last.outputs[0].url)).status).toBe(200);
      expect(last.creditsCharged).toBe(2);
    });
  });

  it('[fail] ends failed with error {code, message} and a refund', async () => {
    const before = await balance(h);
    const t = await submit(h, raw('quill-vector', 'quill-vector-1', { prompt: 'logo [fail]' }));
    expect(t.status).toBe(200);
    expect(await balance(h)).toBe(before - 8);
    const done = await finish(h, t.body.taskId);
    expect(done.body.status).toBe('failed');
    expect(typeof done.body.error?.code).toBe('string');
    expect(done.body.error.code.length).toBeGreaterThan(0);
    expect(typeof done.body.error.message).toBe('string');
    expect(done.body.error.message.length).toBeGreaterThan(0);
    expect(done.body.completedAt).toMatch(ISO);
    expect(done.body.outputs ?? []).toHaveLength(0);
    expect(done.body.creditsCharged).toBe(0);
    expect(await balance(h)).toBe(before);
    expect(await spentToday(h)).toBe(0);
  });

  it('[cancel] ends cancelled with error null and a refund', async () => {
    const before = await balance(h);
    const t = await submit(h, raw('quill-vector', 'quill-vector-1', { prompt: 'logo [cancel]' }));
    expect(t.status).toBe(200);
    const done = await finish(h, t.body.taskId);
    expect(done.body.status).toBe('cancelled');
    expect(done.body.error).toBeNull();
    expect(done.body.completedAt).toMatch(ISO);
    expect(done.body.creditsCharged).toBe(0);
    expect(await balance(h)).toBe(before);
  });

  it('GET /tasks/{id}: 404 unknown_task for another key (even of the same user) and for unknown ids', async () => {
    const t = await submit(h, blips());
    expect((await h.api('GET', `/tasks/${t.body.taskId}`)).status).toBe(200);
    expectError(await h.api('GET', `/tasks/${t.body.taskId}`, { key: 'personal2' }), 404, 'unknown_task');
    expectError(await h.api('GET', `/tasks/${t.body.taskId}`, { key: 'team' }), 404, 'unknown_task');
    const teamTask = await submit(h, blips(), 'team');
    expect((await h.api('GET', `/tasks/${teamTask.body.taskId}`, { key: 'team' })).status).toBe(200);
    const other = await h.api('GET', `/tasks/${teamTask.body.taskId}`, { key: 'team2' });
    expectError(other, 404, 'unknown_task');
    expect(other.body.error.type).toBe('invalid_request_error');
    expectError(await h.api('GET', '/tasks/task_doesnotexist'), 404, 'unknown_task');
  });

  it('a team key bills the team balance, never the personal one', async () => {
    const personal = await balance(h, 'personal');
    const team = await balance(h, 'team');
    const t = await submit(h, pop(), 'team');
    expect(t.status).toBe(200);
    expect(await balance(h, 'team')).toBe(team - 2);
    expect(await balance(h, 'team2')).toBe(team - 2);
    expect(await balance(h, 'personal')).toBe(personal);
  });
});

describe('tasks: concurrency (api-notes §8)', () => {
  // Runs of a minute (dispatch 15 s) in a sandbox of their own: the samples sit 30 s clear of every
  // boundary, so real time passing on a busy machine cannot move a task into its next phase.
  const c = useSandbox({ taskMs: 60_000 });
  const getTask = async (id: string, key = 'personal') => (await c.api('GET', `/tasks/${id}`, { key })).body;

  it('personal key: 3 run at once, the rest wait queued and finish in FIFO order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await submit(c, pop(`fifo ${i}`))).body.taskId);
    // Samples sit mid-way through each round.
    await advance(c, 45_000);
    const s1 = await Promise.all(ids.map((id) => getTask(id)));
    expect(s1.map((t) => t.status)).toEqual(['running', 'running', 'running', 'queued', 'queued']);
    await advance(c, 60_000);
    const s2 = await Promise.all(ids.map((id) => getTask(id)));
    expect(s2.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'running', 'running']);
    await advance(c, 150_000);
    const s3 = await Promise.all(ids.map((id) => getTask(id)));
    expect(s3.every((t) => t.status === 'succeeded')).toBe(true);
    const ends = s3.map((t) => Date.parse(t.completedAt));
    for (let i = 1; i < ends.length; i++) expect(ends[i]).toBeGreaterThanOrEqual(ends[i - 1]!);
    // The queued ones started only when a slot freed: they end at least one run after the first three.
    expect(ends[3]! - ends[0]!).toBeGreaterThanOrEqual(50_000);
  });

  it('a second key of the same user shares the 3 slots', async () => {
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push((await submit(c, pop(`a${i}`))).body.taskId);
    const other = (await submit(c, pop('b'), 'personal2')).body.taskId;
    await advance(c, 45_000);
    expect((await Promise.all(mine.map((id) => getTask(id)))).map((t) => t.status)).toEqual([
      'running',
      'running',
      'running',
    ]);
    expect((await getTask(other, 'personal2')).status).toBe('queued');
  });

  it('team keys share one pool (5), independent of the personal pool', async () => {
    const personal = [];
    for (let i = 0; i < 3; i++) personal.push((await submit(c, pop(`p${i}`))).body.taskId);
    const team: Array<[string, string]> = [];
    for (let i = 0; i < 6; i++) {
      const key = i % 2 ? 'team2' : 'team';
      const r = await submit(c, pop(`t${i}`), key);
      expect(r.status).toBe(200);
      team.push([r.body.taskId, key]);
    }
    await advance(c, 45_000);
    const statuses = await Promise.all(team.map(([id, key]) => getTask(id, key)));
    expect(statuses.map((t) => t.status)).toEqual([
      'running',
      'running',
      'running',
      'running',
      'running',
      'queued',
    ]);
    expect((await Promise.all(personal.map((id) => getTask(id)))).every((t) => t.status === 'running')).toBe(
      true,
    );
  });
});

describe('tasks: daily cap (api-notes §8) on the capped key (50 credits)', () => {
  const vector15High = raw('quill-vector', 'quill-vector-1-5', { prompt: 'logo', detail: 'high' }); // 14
  const vector1High = raw('quill-vector', 'quill-vector-1', { prompt: 'logo', detail: 'high' }); // 12
  const icons = raw('pixelmoss-icons', 'pixelmoss-icons-1', { prompt: 'star icon' }); // 5

  it('precise check 402 token_daily_cap_exceeded, coarse check 429 token_daily_cap_reached, reset at UTC midnight', async () => {
    for (const body of [vector15High, vector15High, vector1High]) {
      const r = await submit(h, body, 'capped');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect(await spentToday(h, 'capped')).toBe(40);
    const before = await balance(h, 'capped');
    // 40 + 12 > 50
    const over = await submit(h, vector1High, 'capped');
    expectError(over, 402, 'token_daily_cap_exceeded');
    expect(over.body.error.spent).toBe(40);
    expect(over.body.error.cap).toBe(50);
    expect(over.body.error.type).toBe('invalid_request_error');
    expect(await balance(h, 'capped')).toBe(before);
    // Exactly up to the cap is fine.
    expect((await submit(h, icons, 'capped')).status).toBe(200);
    expect((await submit(h, icons, 'capped')).status).toBe(200);
    const me = (await h.api('GET', '/me', { key: 'capped' })).body;
    expect(me.key).toMatchObject({ dailyCreditCap: 50, creditsSpentToday: 50, creditsRemainingToday: 0 });
    // Spent >= cap: the coarse check answers before pricing, even for a payload that cannot be priced.
    const reached = await submit(h, blips(), 'capped');
    expectError(reached, 429, 'token_daily_cap_reached');
    expect(reached.body.error.type).toBe('rate_limit_error');
    const nowMs = Date.parse((await h.control('GET', '/clock')).body.now);
    const toMidnight = 86_400_000 - (nowMs % 86_400_000);
    const retryAfter = Number(reached.headers.get('retry-after'));
    expect(Math.abs(retryAfter - toMidnight / 1000)).toBeLessThanOrEqual(5);
    expectError(await submit(h, raw('nope', 'nope', {}), 'capped'), 429, 'token_daily_cap_reached');
    // Past UTC midnight the cap resets.
    await advance(h, toMidnight + 1000);
    const next = await submit(h, blips(), 'capped');
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(await spentToday(h, 'capped')).toBe(1);
  });

  it("a failed task gives its credits back to today's spend", async () => {
    const r = await submit(
      h,
      raw('quill-vector', 'quill-vector-1-5', { prompt: 'logo [fail]', detail: 'high' }),
      'capped',
    );
    expect(r.status).toBe(200);
    expect(await spentToday(h, 'capped')).toBe(14);
    await finish(h, r.body.taskId, 'capped');
    expect(await spentToday(h, 'capped')).toBe(0);
  });

  it('a [blocked] prompt does not count toward the cap', async () => {
    expectError(
      await submit(h, raw('quill-vector', 'quill-vector-1', { prompt: '[blocked]' }), 'capped'),
      422,
      'moderation_blocked',
    );
    expect(await spentToday(h, 'capped')).toBe(0);
  });
});

describe('tasks: accounts and authentication', () => {
  it('broke key: 402 insufficient_credits (README) with balance and credits', async () => {
    const r = await submit(h, pop(), 'broke');
    expectError(r, 402, 'insufficient_credits');
    expect(r.body.error.balance).toBe(0);
    expect(r.body.error.credits).toBe(2);
    expect(await balance(h, 'broke')).toBe(0);
  });

  it('arrears: 402 arrears', async () => {
    const before = await balance(h, 'arrears');
    expectError(await submit(h, pop(), 'arrears'), 402, 'arrears');
    expect(await balance(h, 'arrears')).toBe(before);
  });

  it('unbound key: 403 token_project_unbound', async () => {
    const r = await submit(h, pop(), 'unbound');
    expectError(r, 403, 'token_project_unbound');
    expect(r.body.error.type).toBe('permission_error');
  });

  it('banned owner: 403 account_banned on submit and on poll', async () => {
    const r = await submit(h, pop(), 'banned');
    expectError(r, 403, 'account_banned');
    expect(r.body.error.type).toBe('permission_error');
    expectError(await h.api('GET', '/tasks/task_x', { key: 'banned' }), 403, 'account_banned');
  });

  it('the expiring key works until its expiry, then 401 invalid_token', async () => {
    expect((await submit(h, blips(), 'expiring')).status).toBe(200);
    await advance(h, 3 * 86_400_000 + 60_000);
    expectError(await submit(h, blips(), 'expiring'), 401, 'invalid_token');
  });

  it('error types follow the README mapping', async () => {
    expect((await submit(h, pop(), 'broke')).body.error.type).toBe('invalid_request_error');
    expect((await submit(h, pop(), 'arrears')).body.error.type).toBe('invalid_request_error');
    expect((await submit(h, pop('[blocked]'))).body.error.type).toBe('invalid_request_error');
    expect((await submit(h, raw('nope', 'nope', {}))).body.error.type).toBe('invalid_request_error');
    expect(
      (await submit(h, raw('lumen-canvas-labs', 'lumen-canvas-labs-0', { prompt: 'x' }))).body.error.type,
    ).toBe('permission_error');
    expect((await submit(h, pop(), 'revoked')).body.error.type).toBe('authentication_error');
  });

  it('401 missing_token / invalid_token', async () => {
    const none = await h.api('POST', '/tasks', { key: null, json: pop() });
    expectError(none, 401, 'missing_token');
    expect(none.body.error.type).toBe('authentication_error');
    expectError(await submit(h, pop(), 'gm_live_' + 'A'.repeat(32)), 401, 'invalid_token');
    expectError(await submit(h, pop(), 'not-a-key'), 401, 'invalid_token');
    expectError(await submit(h, pop(), 'expired'), 401, 'invalid_token');
    expectError(await submit(h, pop(), 'revoked'), 401, 'invalid_token');
    expectError(await h.api('GET', '/tasks/task_x', { key: null }), 401, 'missing_token');
  });
});

describe('tasks: rate limits (api-notes §8)', () => {
  it('POST /tasks: 60 per minute, then 429 rate_limited with Retry-After; open again in the next window', async () => {
    const cancel = blips('[cancel] quiet');
    const results = [];
    for (let i = 0; i < 60; i++) results.push(await submit(h, cancel));
    expect(results.filter((r) => r.status === 200)).toHaveLength(60);
    const over = await submit(h, cancel);
    expectError(over, 429, 'rate_limited');
    expect(over.body.error.type).toBe('rate_limit_error');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    await advance(h, 61_000);
    expect((await submit(h, cancel)).status).toBe(200);
  });

  it('GET /tasks/{id}: 60 per minute (README)', async () => {
    const t = await submit(h, blips());
    const polls = await Promise.all(
      Array.from({ length: 60 }, () => h.api('GET', `/tasks/${t.body.taskId}`)),
    );
    expect(polls.every((p) => p.status === 200)).toBe(true);
    const over = await h.api('GET', `/tasks/${t.body.taskId}`);
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
