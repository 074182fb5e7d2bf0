import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHosts, hostnameOfHostHeader, isLoopbackHost } from '../../node-shared/hosts';
import { UPLOAD_HEAD_BYTES, UploadScanner } from '../src/core/uploads';
import { FFMPEG_CONCURRENCY, ffmpegQueue } from '../src/media/ffmpeg';
import { SANDBOX_FOLDER } from '../src/persistence';
import { startSandbox, type SandboxOptions } from '../src/server';
import { spawnSandbox } from '../src/spawn-sandbox';
import { crc32, makeImage } from './fixtures';
import {
  DEMO_KEY_NAMES,
  clientFor,
  expectError,
  fetchParsed,
  promptOnlyTask,
  sleep,
  useSandbox,
  waitForTask,
} from './harness';

// The second hostile pass against the sandbox (what SECURITY.md says it guarantees): each block is a
// fault that pass found, and proves it holds.

const run = promisify(execFile);
const STUDIO = 'http://127.0.0.1:5173';
const EVIL = 'http://evil.example';
const h = useSandbox({ allowedOrigins: [STUDIO] });

const scratch = mkdtempSync(join(tmpdir(), 'sandbox-round-two-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

/** The demo keys of a sandbox started with these options, which is closed again. */
async function keysOf(options: SandboxOptions): Promise<Record<string, string>> {
  const client = await clientFor(await startSandbox({ port: 0, ...options }));
  await client.running.close();
  return client.keys;
}

/** A GET with a Host header of our choosing (fetch does not let a test set one). */
function getWithHost(url: string, host: string) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, headers: { Host: host } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('1. rebound names', () => {
  it('only exact loopback names and addresses are loopback', () => {
    for (const name of [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.255.254',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
    ])
      expect(isLoopbackHost(name), name).toBe(true);
    for (const name of [
      '127.evil.example',
      '127.0.0.1.nip.io',
      '127.999.0.1',
      '127.0.0.01',
      '127.1',
      '0x7f.0.0.1',
      'localhost.evil.example',
      'evil-localhost',
      '128.0.0.1',
      '',
    ])
      expect(isLoopbackHost(name), name).toBe(false);
    expect(hostnameOfHostHeader('127.0.0.1:4010')).toBe('127.0.0.1');
    expect(hostnameOfHostHeader('[::1]:4010')).toBe('[::1]');
    expect(hostnameOfHostHeader('127.1:4010')).toBe('127.1'); // not normalized into a loopback address
    expect(hostnameOfHostHeader('a b')).toBeNull();
  });

  it('the control API and uploads refuse a Host that only looks like loopback', async () => {
    const port = new URL(h.origin).port;
    const up = await h.api('POST', '/uploads', {
      body: new Uint8Array(await makeImage()),
      headers: { 'Content-Type': 'image/png' },
    });
    expect(up.status).toBe(200);
    const uploadUrl = `${h.origin}${new URL(up.body.url).pathname}`;
    for (const name of [
      '127.evil.example',
      '127.0.0.1.nip.io',
      '127.999.0.1',
      '127.1',
      'localhost.evil.example',
    ]) {
      for (const url of [`${h.origin}/__sandbox/keys`, `${h.origin}/__sandbox/requests`, uploadUrl]) {
        const r = await getWithHost(url, `${name}:${port}`);
        expect(r.status, `${name} ${url}`).toBe(403);
        expect(r.body).not.toContain(h.keys.personal);
        expect(r.body).not.toContain('upl_');
      }
    }
    for (const name of ['127.0.0.1', '127.0.0.2', 'localhost', '[::1]']) {
      expect((await getWithHost(`${h.origin}/__sandbox/keys`, `${name}:${port}`)).status, name).toBe(200);
      expect((await getWithHost(uploadUrl, `${name}:${port}`)).status, name).toBe(200);
    }
  });
});

describe("2. demo keys and the API's origins", () => {
  it('demo keys are random per run without a data folder, and per data folder, stable across its restarts', async () => {
    const [a, b] = [await keysOf({}), await keysOf({})];
    for (const name of DEMO_KEY_NAMES) {
      expect(a[name], name).toMatch(/^gm_live_[A-Za-z0-9]{32}$/);
      expect(b[name], name).not.toBe(a[name]);
    }
    const folder = join(scratch, 'keys-a');
    const first = await keysOf({ dataDir: folder });
    expect(await keysOf({ dataDir: folder })).toEqual(first);
    const other = await keysOf({ dataDir: join(scratch, 'keys-b') });
    for (const name of DEMO_KEY_NAMES) expect(other[name], name).not.toBe(first[name]);
    expect(new Set(Object.values(first)).size).toBe(Object.keys(first).length);
  });

  it("/v1 answers the studio's origins and clients without an Origin; a page elsewhere is refused", async () => {
    const me = (origin?: string) =>
      fetchParsed(`${h.base}/me`, {
        headers: { Authorization: `Bearer ${h.keys.personal}`, ...(origin ? { Origin: origin } : {}) },
      });
    const refused = await me(EVIL);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('origin_not_allowed');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetchParsed(`${h.base}/tasks`, {
      method: 'OPTIONS',
      headers: {
        Origin: EVIL,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // Nothing was done for the refused page: the request log has only the allowed calls below.
    for (const origin of [STUDIO, 'http://localhost:5173', h.origin]) {
      const r = await me(origin);
      expect(r.status, origin).toBe(200);
      expect(r.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(r.headers.get('vary'), origin).toMatch(/origin/i);
    }
    const noOrigin = await me();
    expect(noOrigin.status).toBe(200);
    expect((await h.control('GET', '/requests')).body).toHaveLength(4);
  });

  it('--api-any-origin (or SANDBOX_API_ANY_ORIGIN=1) keeps `*` for another client', async () => {
    const open = await clientFor(await startSandbox({ port: 0, apiAnyOrigin: true }));
    try {
      const r = await fetch(`${open.base}/me`, {
        headers: { Authorization: `Bearer ${open.keys.personal}`, Origin: EVIL },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      // The control API stays closed to it.
      expect((await fetch(`${open.origin}/__sandbox/keys`, { headers: { Origin: EVIL } })).status).toBe(403);
    } finally {
      await open.running.close();
    }
    for (const [args, env] of [
      [['--port', '0', '--api-any-origin'], {}],
      [['--port', '0'], { SANDBOX_API_ANY_ORIGIN: '1' }],
    ] as const) {
      const { child, origin } = await spawnSandbox([...args], env);
      try {
        const r = await fetch(`${origin}/v1/me`, { headers: { Origin: EVIL } });
        expect(r.status, args.join(' ')).toBe(401);
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
      } finally {
        child.kill('SIGTERM');
      }
    }
  }, 60_000);
});

/** Runs a command line of ours to its first line of output or its exit: what it printed, and its exit code. */
function runUntilListening(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): Promise<{ code: number | null; out: string; err: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(script), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((done) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (/ at http:\/\//.test(out)) done({ code: null, out, err, child });
    });
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => done({ code, out, err, child }));
  });
}

describe('3. hosts', () => {
  it('the HOST check is shared: exact loopback passes, anything else needs --allow-remote and is warned about', () => {
    expect(checkHosts(['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'], false)).toBeUndefined();
    for (const host of ['0.0.0.0', '::', '127.0.0.1.nip.io', '127.999.0.1', '192.168.1.5'])
      expect(() => checkHosts([host], false), host).toThrow(/--allow-remote/);
    expect(checkHosts(['0.0.0.0'], true)).toMatch(/^Warning: .*control API/);
  });

  it('npm run sandbox -- --host 0.0.0.0 is refused unless --allow-remote, and then warned about', async () => {
    const refused = await runUntilListening('sandbox/src/cli.ts', ['--port', '0', '--host', '0.0.0.0'], {});
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/not loopback.*--allow-remote/s);
    const allowed = await runUntilListening(
      'sandbox/src/cli.ts',
      ['--port', '0', '--host', '0.0.0.0', '--allow-remote'],
      {},
    );
    try {
      expect(allowed.code).toBeNull();
      expect(allowed.err).toMatch(/^Warning: /m);
    } finally {
      allowed.child.kill('SIGTERM');
    }
  }, 30_000);

  it('HOST=::1 npm start listens, with the address in brackets in every URL', async () => {
    // start.ts serves dist/ from its working folder: a stand-in build is enough here.
    const cwd = join(scratch, 'studio');
    mkdirSync(join(cwd, 'dist'), { recursive: true });
    writeFileSync(join(cwd, 'dist', 'index.html'), '<!doctype html><title>studio</title>');
    symlinkSync(resolve('node_modules'), join(cwd, 'node_modules')); // for --import tsx
    const port = await freePort();
    const started = await runUntilListening(
      'server/start.ts',
      [],
      { HOST: '::1', PORT: String(port), SANDBOX_PORT: '0' },
      cwd,
    );
    try {
      expect(started.code, started.err).toBeNull();
      expect(started.out).toContain(`Media Studio at http://[::1]:${port}`);
      const config = await (await fetch(`http://[::1]:${port}/config.json`)).json();
      expect(config.defaultBaseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/v1$/);
      // The studio's own origin may use the sandbox's API and control API.
      const keys = await fetch(config.sandboxKeysUrl, { headers: { Origin: `http://[::1]:${port}` } });
      expect(keys.status).toBe(200);
    } finally {
      started.child.kill('SIGTERM');
    }
  }, 30_000);
});

describe('4. the data folder', () => {
  it('keeps to a folder of its own, deletes only what it wrote, and starts whatever else lies there', async () => {
    const dir = join(scratch, 'data');
    const own = join(dir, SANDBOX_FOLDER);
    // A person's files, some in folders named like the sandbox's own, and a folder among the uploads.
    const theirs = ['notes.txt', 'renders/keep.txt', 'uploads/keep.txt'].map((f) => join(dir, f));
    mkdirSync(join(dir, 'renders'), { recursive: true });
    mkdirSync(join(dir, 'uploads', 'folder'), { recursive: true });
    for (const file of theirs) writeFileSync(file, 'mine');

    const round = async () => {
      const sb = await clientFor(await startSandbox({ port: 0, taskMs: 100, dataDir: dir }));
      try {
        const up = await sb.api('POST', '/uploads', {
          body: new Uint8Array(await makeImage()),
          headers: { 'Content-Type': 'image/png' },
        });
        expect(up.status).toBe(200);
        const task = await sb.api('POST', '/tasks', { json: await promptOnlyTask(sb) });
        const done = await waitForTask(sb, task.body.taskId);
        expect((await fetch(done.body.outputs[0].url)).status).toBe(200); // a render on disk
        expect((await sb.control('POST', '/reset')).status).toBe(200);
      } finally {
        await sb.running.close();
      }
    };
    await round();
    // Inside its own folder too, what it did not write stays, a folder among the uploads included.
    mkdirSync(join(own, 'uploads', 'upl_aFolder00000'), { recursive: true });
    const alsoTheirs = ['renders/keep.txt', 'uploads/keep.txt', 'uploads/upl_aFolder00000/keep.txt'].map(
      (f) => join(own, f),
    );
    for (const file of alsoTheirs) writeFileSync(file, 'mine');
    await round();
    for (const file of [...theirs, ...alsoTheirs]) expect(readFileSync(file, 'utf8'), file).toBe('mine');
    expect(readdirSync(dir).sort()).toEqual([SANDBOX_FOLDER, 'notes.txt', 'renders', 'uploads']);
  }, 30_000);
});

describe('5. the request log', () => {
  it('keeps a bounded entry per request, whatever its path, with only what the control API shows', async () => {
    const long = `/v1/${'a'.repeat(8000)}`;
    for (let i = 0; i < 300; i++) {
      const r = await fetch(`${h.origin}${long}${i}`);
      await r.arrayBuffer();
      expect(r.status).toBe(404); // no such route, and no key sent
    }
    const r = await fetchParsed(`${h.origin}/__sandbox/requests`);
    expect(r.body).toHaveLength(300);
    // Each entry: when, method, a path cut short, status (and the key's name when it has one).
    for (const entry of r.body) {
      expect(Object.keys(entry).sort()).toEqual(['at', 'method', 'path', 'status']);
      expect(entry.path.length).toBeLessThanOrEqual(201);
      expect(entry.path.startsWith('/v1/aaaa')).toBe(true);
      expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
    }
    // 300 requests of 8 KB paths once made 2.4 MB of log; now a few hundred bytes each.
    expect(r.text.length).toBeLessThan(300 * 300);
  });
});

describe('6. POST /__sandbox/limits', () => {
  it("takes JSON only, with a JSON Content-Type and the control API's small body limit", async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetchParsed(`${h.origin}/__sandbox/limits`, { method: 'POST', headers, body });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const r = await post({ 'Content-Type': type }, '{"tasks.create":2000}');
      expect(r.status, type).toBe(415);
      expect(r.body.error.code).toBe('unsupported_media_type');
    }
    // A string body with no type given is sent as text/plain: refused too.
    expect((await post({}, '{"tasks.create":2000}')).status).toBe(415);
    const big = await post(
      { 'Content-Type': 'application/json' },
      `{"tasks.create":2000${' '.repeat(100_000)}}`,
    );
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('request_too_large');
    // Nothing was changed by the refused bodies; a JSON one still works.
    const ok = await h.control('POST', '/limits', { 'tasks.create': 70 });
    expect(ok.status).toBe(200);
    expect(ok.body['tasks.create']).toBe(70);
  });
});

/** A PNG that declares width x height in its header (its IHDR rewritten, checksum and all) over a few real pixels. */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await makeImage({ width: 4, height: 4 }));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29); // CRC of "IHDR" and its 13 bytes of data
  return png;
}

describe('7. image size', () => {
  it('refuses a PNG over 50 million pixels from its header, before decoding it (400, spec shape)', async () => {
    for (const [width, height] of [
      [9999, 9999],
      [8000, 8000],
      [100_000, 1000],
    ] as const) {
      const started = performance.now();
      const r = await h.api('POST', '/uploads', {
        body: new Uint8Array(await pngDeclaring(width, height)),
        headers: { 'Content-Type': 'image/png' },
      });
      expectError(r, 400, 'invalid_payload', 'invalid_request_error');
      expect(r.body.error.message).toMatch(/50 million pixels/);
      expect(r.body.error.param).toBe('Content-Type'); // as every refusal of what a file is
      expect(r.body.error.maxPixels).toBe(50_000_000);
      expect(performance.now() - started).toBeLessThan(500);
    }
    // Under the limit, the header is not enough: the pixels must decode.
    const small = await h.api('POST', '/uploads', {
      body: new Uint8Array(await pngDeclaring(5000, 5000)),
      headers: { 'Content-Type': 'image/png' },
    });
    expectError(small, 400, 'invalid_payload');
    expect(small.body.error.message).not.toMatch(/pixels/);
  });
});

/** ffmpeg processes this test process runs now (counted by the system, not by the queue itself). */
async function ffmpegChildren(): Promise<number> {
  try {
    const { stdout } = await run('pgrep', ['-c', '-x', '-P', String(process.pid), 'ffmpeg']);
    return Number(stdout.trim());
  } catch {
    return 0; // pgrep exits 1 when it finds none
  }
}

describe('8. renders under load', () => {
  it(`20 video tasks never run more than ${FFMPEG_CONCURRENCY} ffmpeg processes at once, and all succeed`, async () => {
    const models = await h.api('GET', '/models?type=video&subtype=text-ref', { key: 'team' });
    const model = models.body.models.find(
      (m: any) => !m.params.some((p: any) => p.required && p.id !== 'prompt'),
    );
    expect(model, 'a text-to-video model that needs only a prompt').toBeDefined();
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await ffmpegChildren());
        await sleep(25);
      }
    })();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await h.api('POST', '/tasks', {
        key: 'team',
        json: { interfaceId: model.id, versionId: model.versions[0].id, params: { prompt: `storm ${i}` } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.taskId);
    }
    try {
      // Every output made (a download waits for its render), the whole storm sampled.
      for (const id of ids) {
        const done = await waitForTask(h, id, 'team', 120_000);
        expect(done.body.status).toBe('succeeded');
        expect((await fetch(done.body.outputs[0].url)).status).toBe(200);
      }
    } finally {
      sampling = false;
      await sampler;
    }
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(FFMPEG_CONCURRENCY);
    expect(ffmpegQueue()).toEqual({ running: 0, waiting: 0 });
  }, 180_000);
});

/** A process's resident memory now and at its peak (Linux /proc), in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** POST /uploads of a WAV of `mb` MiB of silence, written a MiB at a time (the test holds no more than that). */
function uploadWav(origin: string, key: string, mb: number): Promise<{ status: number; body: string }> {
  const dataBytes = mb * 1024 * 1024;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(48_000, 24);
  header.writeUInt32LE(96_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  const chunk = Buffer.alloc(1024 * 1024);
  const url = new URL(`${origin}/v1/uploads`);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'audio/wav',
          'Content-Length': String(header.length + dataBytes),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    void (async () => {
      req.write(header);
      for (let i = 0; i < mb; i++)
        if (!req.write(chunk)) await new Promise((resume) => req.once('drain', resume));
      req.end();
    })();
  });
}

describe('9. upload memory', () => {
  it('the scanner finds the trigger texts across chunk boundaries and keeps only the first bytes', () => {
    const body = Buffer.from(`${'x'.repeat(100)}SANDBOX-BLOCK${'y'.repeat(100)}SANDBOX-ERROR`);
    for (const step of [1, 3, 7, 106, body.length]) {
      const scanner = new UploadScanner();
      for (let i = 0; i < body.length; i += step) scanner.feed(body.subarray(i, i + step));
      const got = scanner.received('/nowhere');
      expect(got, `chunks of ${step}`).toMatchObject({ size: body.length, blockMark: true, errorMark: true });
      expect(got.head.equals(body.subarray(0, UPLOAD_HEAD_BYTES))).toBe(true);
    }
    const clean = new UploadScanner();
    clean.feed(Buffer.from('SANDBOX-BLOC'));
    clean.feed(Buffer.from('x SANDBOX-ERRO'));
    expect(clean.received('/nowhere')).toMatchObject({ blockMark: false, errorMark: false });
  });

  it('four concurrent 64 MB uploads are streamed to disk: the process grows by far less than their total', async () => {
    const { child, origin } = await spawnSandbox(['--port', '0']);
    try {
      const keys = (await (await fetch(`${origin}/__sandbox/keys`)).json()) as Array<{
        name: string;
        key: string;
      }>;
      const key = keys.find((k) => k.name === 'personal')!.key;
      // Warm up (the first upload loads the code paths and the checks' libraries), then measure.
      expect((await uploadWav(origin, key, 1)).status).toBe(200);
      const before = memoryOf(child.pid!);
      const answers = await Promise.all([0, 1, 2, 3].map(() => uploadWav(origin, key, 64)));
      for (const a of answers) expect(a.status, a.body).toBe(200);
      const after = memoryOf(child.pid!);
      const total = 4 * 64 * 1024 * 1024;
      // Held in memory, the bodies alone were 256 MB more at the peak (and twice that while joined: 531 MB
      // measured). Streamed, the growth is the runtime's buffers: about 60 MB on Node 20, 69 MB seen on
      // Node 24 on a loaded machine, so the bound is half the bodies, still far below the old growth.
      expect(after.peak - before.peak).toBeLessThan(total / 2);
      const sizes = answers.map((a) => JSON.parse(a.body).size as number);
      expect(sizes).toEqual(Array(4).fill(44 + 64 * 1024 * 1024));
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);
});
