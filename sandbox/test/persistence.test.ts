import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_FOLDER } from '../src/persistence';
import { startSandbox, type SandboxOptions } from '../src/server';
import { clientFor } from './harness';

// product-notes §4: "State lives in memory and is lost on restart unless a data folder is given; it never
// writes outside it."

const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PUBLIC = 'http://sandbox.test';

/** Starts a sandbox, and submits an image-svg task with this prompt as the demo key `personal`. */
async function startWithTask(options: SandboxOptions, prompt: string) {
  const sb = await clientFor(await startSandbox({ port: 0, taskMs: 100, ...options }));
  const models = await sb.api('GET', '/models?type=image&subtype=image-svg');
  const model = models.body.models[0];
  const task = await sb.api('POST', '/tasks', {
    json: { interfaceId: model.id, versionId: model.versions[0].id, params: { prompt } },
  });
  return { sb, task };
}

describe('data folder', () => {
  it('keeps balances, tasks and uploads across a restart, and writes only inside the folder', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const { sb: first, task } = await startWithTask({ publicUrl: PUBLIC, dataDir: dir }, 'kept');
    expect(task.status).toBe(200);
    const upload = await first.api('POST', '/uploads', {
      body: new Uint8Array(png),
      headers: { 'Content-Type': 'image/png' },
    });
    expect(upload.status).toBe(200);
    const before = await first.api('GET', '/me');
    await first.running.close();

    const second = await clientFor(
      await startSandbox({ port: 0, taskMs: 100, publicUrl: PUBLIC, dataDir: dir }),
    );
    try {
      const after = await second.api('GET', '/me');
      expect(after.body.user.creditBalance).toBe(before.body.user.creditBalance);
      expect(after.body.user.creditBalance).toBeLessThan(5000);
      const again = await second.api('GET', `/tasks/${task.body.taskId}`);
      expect(again.status).toBe(200);
      const path = new URL(upload.body.url).pathname;
      const bytes = Buffer.from(await (await fetch(`${second.origin}${path}`)).arrayBuffer());
      expect(bytes.equals(png)).toBe(true);
    } finally {
      await second.running.close();
    }
    expect(readdirSync(dir)).toEqual([SANDBOX_FOLDER]);
    expect(readdirSync(join(dir, SANDBOX_FOLDER)).sort()).toEqual([
      'keys.json',
      'renders',
      'state.json',
      'uploads',
    ]);
  });

  it('without a data folder, a restart starts fresh', async () => {
    const { sb: first, task } = await startWithTask({}, 'gone');
    await first.running.close();
    const second = await clientFor(await startSandbox({ port: 0, taskMs: 100 }));
    try {
      expect((await second.api('GET', `/tasks/${task.body.taskId}`)).status).toBe(404);
    } finally {
      await second.running.close();
    }
  });
});
