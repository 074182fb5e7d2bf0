import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaSpec } from './media-types';
import type { MediaWorks, UploadVerdict } from './media-works';
import { Sandbox } from './sandbox';

// core does its media work only through the port it is given (media-works.ts): with a fake one, tasks,
// catalog assets, uploads and describe-image work without sharp or ffmpeg, and use what the port says.

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function fakeWorks() {
  const rendered: MediaSpec[] = [];
  let verdict: UploadVerdict = { ok: true, probe: { width: 4, height: 3 } };
  const works: MediaWorks = {
    render: async (spec) => {
      rendered.push(spec);
      return { bytes: Buffer.from(`made:${spec.kind}:${spec.prompt}`), contentType: 'image/jpeg' };
    },
    renderLogo: async (_seed, text) => ({ bytes: Buffer.from(`logo:${text}`), contentType: 'image/png' }),
    verifyUpload: async () => verdict,
    inspectSource: async () => ({ width: 4, height: 3, opaque: true }),
    // A 2 x 2 red image.
    sampleImage: async () => ({
      width: 2,
      height: 2,
      pixels: {
        data: new Uint8Array([255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255]),
        width: 2,
        height: 2,
        channels: 4,
        dominant: { r: 255, g: 0, b: 0 },
        entropy: 0,
        sharpness: 0,
      },
    }),
  };
  return { works, rendered, refuse: (v: UploadVerdict) => (verdict = v) };
}

let dir: string;
let fake: ReturnType<typeof fakeWorks>;
let sb: Sandbox;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-core-'));
  fake = fakeWorks();
  sb = new Sandbox({
    publicUrl: 'http://sandbox.test',
    taskMs: 100,
    moderationMs: 100,
    mediaDir: dir,
    works: fake.works,
  });
});
// Outputs are written when their render ends, which may be just after a test that moved the clock: a
// moment for them, then the folder goes (again if a last file lands while it is removed).
afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const personal = () => sb.authenticate(`Bearer ${sb.demoKeys().find((k) => k.name === 'personal')!.key}`);

describe('Sandbox over an injected media port', () => {
  it('makes a task output with the port and serves what it made once the task has succeeded', async () => {
    const key = personal();
    const model = sb.catalog.catalog.models.find((m) => m.id === 'pixelmoss-pop')!;
    const { taskId } = sb.submitTask(
      key,
      { interfaceId: model.id, versionId: model.versions[0]!.id, params: { prompt: 'a red kite' } },
      undefined,
    );
    sb.clock.advance(60_000);
    const task = await sb.getTask(key, taskId);
    expect(task.status).toBe('succeeded');
    const path = new URL(task.outputs[0]!.url).pathname;
    const file = await sb.mediaFile(path);
    expect(file?.bytes.toString()).toBe('made:image:a red kite');
    expect(fake.rendered.map((s) => s.prompt)).toContain('a red kite');
  });

  it('renders catalog logos with the port', async () => {
    const logo = sb.listModels('image', 'default').models.find((m) => m.brand.logo)!.brand.logo!;
    const file = await sb.mediaFile(new URL(logo).pathname);
    expect(file?.bytes.toString()).toMatch(/^logo:/);
  });

  it('keeps an upload the port accepts, with its probe, and refuses one it does not', async () => {
    const key = personal();
    const ok = await sb.createUpload(key, 'image/png', PNG);
    expect(ok.status).toBe(200);
    fake.refuse({ ok: false, reason: 'not a PNG, says the port' });
    await expect(sb.createUpload(key, 'image/png', PNG)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_payload',
      message: 'not a PNG, says the port',
    });
  });

  it('describes an image from the pixels the port reads', async () => {
    const key = personal();
    const up = await sb.createUpload(key, 'image/png', PNG);
    const url = (up.body as { url: string }).url;
    const d = await sb.describe(key, { imageUrl: url, language: 'en' });
    expect(d.credits).toBe(1);
    expect(d.composition).toMatch(/1:1/);
    expect(d.palette).toMatch(/red/);
  });
});

describe('what the sandbox keeps per task', () => {
  const pop = (prompt: string) => ({
    interfaceId: 'pixelmoss-pop',
    versionId: 'pixelmoss-pop-1',
    params: { prompt },
  });
  const HOUR = 60 * 60 * 1000;

  it('drops Idempotency-Key records past their 24 hours (api-notes §4 rule 7) and keeps every task', () => {
    const key = personal();
    for (let i = 0; i < 5; i++) sb.submitTask(key, pop(`day one ${i}`), `day-one-${i}`);
    sb.clock.advance(12 * HOUR);
    sb.submitTask(key, pop('noon'), 'noon');
    sb.clock.advance(12 * HOUR + 1);
    // A key of day one used again once its record is gone makes a new task, kept for another day.
    const again = sb.submitTask(key, pop('day one 0'), 'day-one-0');
    expect(again.idempotent).toBeUndefined();
    const kept = () => sb.snapshot().idempotency.map(([id]) => id.slice(id.indexOf(':') + 1));
    expect(kept()).toEqual(['noon', 'day-one-0']);
    expect(sb.snapshot().tasks).toHaveLength(7);

    sb.clock.advance(12 * HOUR);
    sb.submitTask(key, pop('day two'), 'day-two');
    expect(kept()).toEqual(['day-one-0', 'day-two']);
    expect(sb.submitTask(key, pop('day one 0'), 'day-one-0')).toMatchObject({
      taskId: again.taskId,
      idempotent: true,
    });
  });
});
