import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../src/server';

// PRODUCT 4: "State lives in memory and is lost on restart unless a data folder is given; it never
// writes outside it."

const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PUBLIC = 'http://sandbox.test';

async function call(base: string, key: string, method: string, path: string, body?: BodyInit, type?: string) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(type ? { 'Content-Type': type } : {}) },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('data folder', () => {
  it('keeps balances, tasks and uploads across a restart, and writes only inside the folder', async () => {
    const first = await startSandbox({ port: 0, taskMs: 100, publicUrl: PUBLIC, dataDir: dir });
    const keys = (await (await fetch(`${first.origin}/__sandbox/keys`)).json()) as Array<{
      name: string;
      key: string;
    }>;
    const key = keys.find((k) => k.name === 'personal')!.key;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = await call(first.baseUrl, key, 'POST', '/uploads', png, 'image/png');
    expect(upload.status).toBe(200);
    const models = await call(first.baseUrl, key, 'GET', '/models?type=image&subtype=image-svg');
    const model = models.body.models[0];
    const task = await call(
      first.baseUrl,
      key,
      'POST',
      '/tasks',
      JSON.stringify({ interfaceId: model.id, versionId: model.versions[0].id, params: { prompt: 'kept' } }),
      'application/json',
    );
    expect(task.status).toBe(200);
    const before = await call(first.baseUrl, key, 'GET', '/me');
    await first.close();

    const second = await startSandbox({ port: 0, taskMs: 100, publicUrl: PUBLIC, dataDir: dir });
    try {
      const after = await call(second.baseUrl, key, 'GET', '/me');
      expect(after.body.user.creditBalance).toBe(before.body.user.creditBalance);
      expect(after.body.user.creditBalance).toBeLessThan(5000);
      const again = await call(second.baseUrl, key, 'GET', `/tasks/${task.body.taskId}`);
      expect(again.status).toBe(200);
      const path = new URL(upload.body.url).pathname;
      const bytes = Buffer.from(await (await fetch(`${second.origin}${path}`)).arrayBuffer());
      expect(bytes.equals(png)).toBe(true);
    } finally {
      await second.close();
    }
    expect(readdirSync(dir).sort()).toEqual(['renders', 'state.json', 'uploads']);
  });

  it('without a data folder, a restart starts fresh', async () => {
    const first = await startSandbox({ port: 0, taskMs: 100 });
    const keys = (await (await fetch(`${first.origin}/__sandbox/keys`)).json()) as Array<{
      name: string;
      key: string;
    }>;
    const key = keys.find((k) => k.name === 'personal')!.key;
    const models = await call(first.baseUrl, key, 'GET', '/models?type=image&subtype=image-svg');
    const model = models.body.models[0];
    const task = await call(
      first.baseUrl,
      key,
      'POST',
      '/tasks',
      JSON.stringify({ interfaceId: model.id, versionId: model.versions[0].id, params: { prompt: 'gone' } }),
      'application/json',
    );
    await first.close();
    const second = await startSandbox({ port: 0, taskMs: 100 });
    try {
      expect((await call(second.baseUrl, key, 'GET', `/tasks/${task.body.taskId}`)).status).toBe(404);
    } finally {
      await second.close();
    }
  });
});
