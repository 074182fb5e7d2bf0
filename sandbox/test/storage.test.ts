import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_FOLDER } from '../src/persistence';
import { startSandbox } from '../src/server';
import { makeImage } from './fixtures';
import { clientFor, useSandbox, waitForTask, type Client } from './harness';

// Media is bounded (sandbox/README.md). Bytes live on disk (the data folder, or a temporary folder of
// the sandbox's own); memory holds a least-recently-used cache of at most `mediaMemoryBytes`; the disk
// holds at most `mediaDiskBytes`, the oldest files going first. Reset deletes the files.

const MEMORY = 200 * 1024;
const DISK = 600 * 1024;
const h = useSandbox({ mediaMemoryBytes: MEMORY, mediaDiskBytes: DISK });

/** A PNG of about `kb` KiB that does not compress (noise). */
async function noisePng(kb: number, seed: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt((kb * 1024) / 3));
  const pixels = Buffer.alloc(side * side * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    pixels[i] = x >>> 24;
  }
  const sharp = (await import('sharp')).default;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

async function uploadPng(bytes: Buffer, client: Client = h) {
  const r = await client.api('POST', '/uploads', {
    body: new Uint8Array(bytes),
    headers: { 'Content-Type': 'image/png' },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { url: string };
}

describe('bounded media storage', () => {
  it('keeps at most mediaMemoryBytes in memory; files beyond it are served from disk, byte for byte', async () => {
    const files: Array<{ url: string; bytes: Buffer }> = [];
    for (let i = 0; i < 4; i++) {
      const bytes = await noisePng(90, i + 1);
      files.push({ ...(await uploadPng(bytes)), bytes });
      expect(h.running.sandbox.media.stats().memoryBytes).toBeLessThanOrEqual(MEMORY);
    }
    for (const f of files) {
      const got = Buffer.from(await (await fetch(f.url)).arrayBuffer());
      expect(got.equals(f.bytes)).toBe(true);
      expect(h.running.sandbox.media.stats().memoryBytes).toBeLessThanOrEqual(MEMORY);
    }
  });

  it('keeps at most mediaDiskBytes on disk: the oldest uploads go (404), the newest stay', async () => {
    const uploads: Array<{ url: string; id: string }> = [];
    for (let i = 0; i < 10; i++) {
      const up = await uploadPng(await noisePng(90, 100 + i));
      uploads.push({ url: up.url, id: new URL(up.url).pathname.split('/').pop()!.replace(/\..*$/, '') });
      expect(h.running.sandbox.media.stats().diskBytes).toBeLessThanOrEqual(DISK);
    }
    const oldest = uploads[0]!;
    expect((await fetch(oldest.url)).status).toBe(404);
    const poll = await h.api('GET', `/uploads/${oldest.id}`);
    expect(poll.status).toBe(404);
    expect(poll.body.error.code).toBe('unknown_upload');
    const newest = uploads.at(-1)!;
    expect((await fetch(newest.url)).status).toBe(200);
    expect((await h.api('GET', `/uploads/${newest.id}`)).status).toBe(200);
    // An evicted upload cannot be used as an input any more: refused like any unknown URL.
    const tool = await h.api('POST', '/quote', {
      json: { aiTool: 'upscale-4x', params: { image: oldest.url } },
    });
    expect(tool.status).toBe(400);
  });

  it('outputs pushed out of the disk budget are made again when asked for', async () => {
    const models = await h.api('GET', '/models?type=image&subtype=default');
    const m = models.body.models.find(
      (x: any) => !x.params.some((p: any) => p.required && p.id !== 'prompt'),
    );
    const t = await h.api('POST', '/tasks', {
      json: { interfaceId: m.id, versionId: m.versions[0].id, params: { prompt: 'a lighthouse' } },
    });
    const done = await waitForTask(h, t.body.taskId);
    const url = done.body.outputs[0].url as string;
    const first = Buffer.from(await (await fetch(url)).arrayBuffer());
    for (let i = 0; i < 8; i++) await uploadPng(await noisePng(90, 200 + i)); // pushes the output out
    const again = await fetch(url);
    expect(again.status).toBe(200);
    const bytes = Buffer.from(await again.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.subarray(0, 3).equals(first.subarray(0, 3))).toBe(true); // same format
  });
});

describe('reset and the data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-storage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reset deletes the uploaded files from the data folder; orphan files are deleted at start', async () => {
    const own = join(dir, SANDBOX_FOLDER);
    const sb = await clientFor(await startSandbox({ port: 0, dataDir: dir }));
    try {
      await uploadPng(await makeImage(), sb);
      expect(readdirSync(join(own, 'uploads'))).toHaveLength(1);
      expect((await sb.control('POST', '/reset')).status).toBe(200);
      expect(readdirSync(join(own, 'uploads'))).toEqual([]);
      expect(readdirSync(join(own, 'renders'))).toEqual([]);
      await uploadPng(await makeImage(), sb);
    } finally {
      await sb.running.close();
    }
    // Saved with its record: kept across a restart.
    const second = await startSandbox({ port: 0, dataDir: dir });
    try {
      expect(readdirSync(join(own, 'uploads'))).toHaveLength(1);
      await fetch(`${second.origin}/__sandbox/reset`, { method: 'POST' });
    } finally {
      await second.close();
    }
    // A file that no record names, as a crash between the write and the save leaves: deleted at start.
    writeFileSync(join(own, 'uploads', 'upl_leftBehind00'), 'left behind');
    const third = await startSandbox({ port: 0, dataDir: dir });
    try {
      expect(readdirSync(join(own, 'uploads'))).toEqual([]);
    } finally {
      await third.close();
    }
  });

  it('without a data folder the media folder is temporary and deleted on close', async () => {
    const sb = await startSandbox({ port: 0 });
    const folder = (sb.sandbox.media.options as { dir: string }).dir;
    expect(folder.startsWith(tmpdir())).toBe(true);
    expect(existsSync(folder)).toBe(true);
    await sb.close();
    expect(existsSync(folder)).toBe(false);
  });

  it('closes without throwing while another process still adds files to its media folder', async () => {
    const sb = await startSandbox({ port: 0 });
    const folder = (sb.sandbox.media.options as { dir: string }).dir;
    // A render outliving its task (ffmpeg writing a frame) as the sandbox closes: files keep coming.
    const renders = join(folder, 'renders');
    mkdirSync(renders, { recursive: true });
    const writer = spawn('sh', ['-c', `i=0; while true; do i=$((i+1)); : > "${renders}/f$i"; done`]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(sb.close()).resolves.toBeUndefined();
    } finally {
      writer.kill('SIGKILL');
      await new Promise((resolve) => writer.once('exit', resolve));
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
