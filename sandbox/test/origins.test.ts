import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/server';
import { spawnSandbox } from '../src/spawn-sandbox';
import { makeImage } from './fixtures';
import { fetchParsed, useSandbox, waitForTask } from './harness';

// The control API answers only its own origin and the allowed ones (the studio's),
// never `*`; its bodies are JSON only, so a page elsewhere cannot send one without a preflight, and the
// preflight is refused. Uploaded files are readable by fetch only from those origins; outputs by any.

const STUDIO = 'http://127.0.0.1:5173';
const EVIL = 'http://evil.example';
const h = useSandbox({ allowedOrigins: [STUDIO] });

function expectRefused(r: { status: number; headers: Headers; body: any }, status = 403) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body)).toEqual(['error']);
  expect(typeof r.body.error.message).toBe('string');
  expect(typeof r.body.error.code).toBe('string');
  expect(r.headers.get('access-control-allow-origin')).toBeNull();
}

async function clockOffset(): Promise<number> {
  return Date.parse((await h.control('GET', '/clock')).body.now) - Date.now();
}

describe('control API origins', () => {
  it('a page on another origin cannot read the demo keys, the clock, the faults or the request log', async () => {
    for (const path of ['/keys', '/clock', '/faults', '/requests']) {
      const r = await fetchParsed(`${h.origin}/__sandbox${path}`, { headers: { Origin: EVIL } });
      expectRefused(r);
      expect(r.body.error.code).toBe('origin_not_allowed');
      for (const key of Object.values(h.keys)) expect(r.text).not.toContain(key);
    }
    // Same-site is not same-origin: another port on this machine is refused as well.
    expectRefused(
      await fetchParsed(`${h.origin}/__sandbox/keys`, { headers: { Origin: 'http://127.0.0.1:9' } }),
    );
  });

  it('the studio origin (under any loopback name) and the sandbox itself may, never with `*`', async () => {
    const port = new URL(h.origin).port;
    for (const origin of [STUDIO, 'http://localhost:5173', h.origin, `http://localhost:${port}`]) {
      const r = await fetchParsed(`${h.origin}/__sandbox/keys`, { headers: { Origin: origin } });
      expect(r.status, origin).toBe(200);
      expect(r.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(r.headers.get('vary'), origin).toMatch(/origin/i);
      expect(r.body.map((k: any) => k.name)).toContain('personal');
    }
  });

  it('a preflight from another origin is refused; the studio gets one for JSON bodies', async () => {
    const preflight = (origin: string) =>
      fetchParsed(`${h.origin}/__sandbox/clock`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
    expectRefused(await preflight(EVIL));
    const ok = await preflight(STUDIO);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(STUDIO);
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('a cross-origin "simple" POST (text/plain, form, no body) has no effect', async () => {
    const t = await h.api('POST', '/uploads', {
      body: new Uint8Array(await makeImage()),
      headers: { 'Content-Type': 'image/png' },
    });
    expect(t.status).toBe(200);
    const before = await clockOffset();
    for (const [path, type, body] of [
      ['/clock', 'text/plain', '{"advanceMs":86400000}'],
      ['/clock', 'application/x-www-form-urlencoded', 'advanceMs=86400000'],
      ['/reset', undefined, undefined],
      ['/faults', 'text/plain', '{"status":500,"count":100}'],
      ['/outage', 'text/plain', '{"durationMs":5000}'],
    ] as const) {
      const r = await fetchParsed(`${h.origin}/__sandbox${path}`, {
        method: 'POST',
        headers: { Origin: EVIL, ...(type ? { 'Content-Type': type } : {}) },
        body,
      });
      expectRefused(r);
    }
    expect(Math.abs((await clockOffset()) - before)).toBeLessThan(60_000);
    expect((await h.control('GET', '/faults')).body).toEqual([]);
    // Nothing was reset: the upload is still there.
    expect((await fetchParsed(t.body.url)).status).toBe(200);
  });

  it('control bodies must be application/json, even without an Origin (415, nothing done)', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await fetchParsed(`${h.origin}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: '{"advanceMs":86400000}',
      });
      expect(r.status, type).toBe(415);
      expect(r.body.error.code).toBe('unsupported_media_type');
    }
    const noType = await fetchParsed(`${h.origin}/__sandbox/faults`, {
      method: 'POST',
      body: '{"status":500}',
    });
    // fetch labels a string body text/plain: refused as well.
    expect(noType.status).toBe(415);
    expect(Math.abs(await clockOffset())).toBeLessThan(60_000);
    expect((await h.control('GET', '/faults')).body).toEqual([]);
    // application/json with a charset is JSON.
    const ok = await fetchParsed(`${h.origin}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"advanceMs":1000}',
    });
    expect(ok.status).toBe(200);
  });

  it('a no-cors load from another site (Sec-Fetch-Site, no Origin) is refused', async () => {
    for (const site of ['cross-site', 'same-site']) {
      expectRefused(await fetchParsed(`${h.origin}/__sandbox/keys`, { headers: { 'Sec-Fetch-Site': site } }));
    }
    expect(
      (await fetchParsed(`${h.origin}/__sandbox/keys`, { headers: { 'Sec-Fetch-Site': 'same-origin' } }))
        .status,
    ).toBe(200);
  });

  it('a rebound DNS name (Host not the sandbox) cannot call it "same-origin"', async () => {
    const url = new URL(`${h.origin}/__sandbox/keys`);
    const answer = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: url.pathname, headers: { Host: host } },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const rebound = await answer(`attacker.example:${url.port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain(h.keys.personal);
    expect((await answer(`localhost:${url.port}`)).status).toBe(200);
  });
});

describe('media origins', () => {
  it('uploads are readable by fetch from allowed origins only; outputs by any origin; <img>-style loads work', async () => {
    const up = await h.api('POST', '/uploads', {
      body: new Uint8Array(await makeImage()),
      headers: { 'Content-Type': 'image/png' },
    });
    expect(up.status).toBe(200);
    const refused = await fetchParsed(up.body.url, { headers: { Origin: EVIL } });
    expectRefused(refused);
    const studio = await fetchParsed(up.body.url, { headers: { Origin: STUDIO } });
    expect(studio.status).toBe(200);
    expect(studio.headers.get('access-control-allow-origin')).toBe(STUDIO);
    // An <img>/<video> sends no Origin: shown anywhere its URL is known (and it is not guessable).
    const plain = await fetchParsed(up.body.url);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cross-origin-resource-policy')).toBe('cross-origin');

    const models = await h.api('GET', '/models?type=image&subtype=default');
    const m = models.body.models.find(
      (x: any) => !x.params.some((p: any) => p.required && p.id !== 'prompt'),
    );
    const task = await h.api('POST', '/tasks', {
      json: { interfaceId: m.id, versionId: m.versions[0].id, params: { prompt: 'a kettle' } },
    });
    const done = await waitForTask(h, task.body.taskId);
    const output = await fetch(done.body.outputs[0].url, { headers: { Origin: EVIL } });
    await output.arrayBuffer();
    expect(output.status).toBe(200);
    expect(output.headers.get('access-control-allow-origin')).toBe('*');

    // The request log, which names upload ids, is not readable from another origin.
    const log = await fetchParsed(`${h.origin}/__sandbox/requests`, { headers: { Origin: EVIL } });
    expectRefused(log);
    expect(log.text).not.toContain('upl_');
  });
});

describe('configuration', () => {
  it('refuses `*` or a non-origin as an allowed origin', async () => {
    await expect(startSandbox({ port: 0, allowedOrigins: ['*'] })).rejects.toThrow(/origin/);
    await expect(startSandbox({ port: 0, allowedOrigins: ['javascript:alert(1)'] })).rejects.toThrow(
      /origin/,
    );
  });

  it('npm run sandbox takes --allow-origin (and SANDBOX_ALLOWED_ORIGINS)', async () => {
    const { child, origin } = await spawnSandbox(
      ['--port', '0', '--allow-origin', 'http://studio.test:8080'],
      {
        SANDBOX_ALLOWED_ORIGINS: 'http://ignored.test',
      },
    );
    try {
      const get = (o: string) => fetch(`${origin}/__sandbox/keys`, { headers: { Origin: o } });
      expect((await get('http://studio.test:8080')).status).toBe(200);
      expect((await get('http://ignored.test')).status).toBe(403);
      expect((await get('http://127.0.0.1:5173')).status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
