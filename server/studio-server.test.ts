import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSP_HASHES, withScriptSources } from './csp';
import { checkHosts, createStudioServer, studioSettings } from './studio-server';

const INLINE_HASH = "'sha256-TQZ30007oF+P7bipsG/sRpEEtlKUpH+NK/P9GN0Qm+8='";

// The `npm start` server and its proxy (docs/deploying.md), started here against a fake API: a tiny
// HTTP server that records what reaches it and answers as each test tells it to.

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const seen: Seen[] = [];
let handler: Handler = (_req, res) => res.end('{}');
/** Answers an `Expect: 100-continue` before the body; default: continue. */
let onExpect: Handler | null = null;

const upstream = createServer((req, res) => record(req, res));
function record(req: IncomingMessage, res: ServerResponse) {
  const entry: Seen = { method: req.method!, url: req.url!, headers: req.headers, bodyBytes: 0 };
  seen.push(entry);
  req.on('data', (chunk: Buffer) => (entry.bodyBytes += chunk.length));
  handler(req, res);
}
upstream.on('checkContinue', (req, res) => {
  if (onExpect) {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, bodyBytes: 0 });
    onExpect(req, res);
    return;
  }
  res.writeContinue();
  record(req, res);
});

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

let studio: Server;
let studioPort: number;
let upstreamOrigin: string;
let dist: string;
const BIG_CHUNK = 'studio-abc.js';
const BIG_CHUNK_TEXT = `export const words = ${JSON.stringify('images, video and sound '.repeat(400))};\n`;
const TIMEOUT_MS = 400;

beforeAll(async () => {
  upstreamOrigin = `http://127.0.0.1:${await listen(upstream)}`;
  dist = mkdtempSync(join(tmpdir(), 'studio-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Media Studio</title>');
  // As the build writes it beside index.html (scripts/first-paint.ts).
  writeFileSync(join(dist, CSP_HASHES), JSON.stringify({ scriptSrc: [INLINE_HASH] }));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'export {};');
  writeFileSync(join(dist, 'assets', 'index-abc.js.map'), '{"version":3}');
  writeFileSync(join(dist, 'assets', BIG_CHUNK), BIG_CHUNK_TEXT);
  // Its compressed copies, as the build writes them beside it (scripts/precompress.ts).
  writeFileSync(join(dist, 'assets', `${BIG_CHUNK}.br`), brotliCompressSync(BIG_CHUNK_TEXT));
  writeFileSync(join(dist, 'assets', `${BIG_CHUNK}.gz`), gzipSync(BIG_CHUNK_TEXT));
  const settings = studioSettings(
    {
      STUDIO_PROXY_TARGET: upstreamOrigin,
      STUDIO_PROXY_TIMEOUT_MS: String(TIMEOUT_MS),
      STUDIO_API_ORIGINS: 'https://staging.example.com/v1, https://api.example.com',
    },
    {
      origin: 'http://127.0.0.1:4173',
      sandbox: { baseUrl: 'http://127.0.0.1:4010/v1', origin: 'http://127.0.0.1:4010' },
    },
  );
  studio = createStudioServer(settings, dist);
  studioPort = await listen(studio);
});

afterAll(() => {
  studio.closeAllConnections();
  upstream.closeAllConnections();
  studio.close();
  upstream.close();
  rmSync(dist, { recursive: true, force: true });
});

beforeEach(() => {
  seen.length = 0;
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  };
  onExpect = null;
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  /** The body as it came, not decoded. */
  raw: Buffer;
  continued: boolean;
}

/** One request to the studio's server, by Node's client (which sends any header it is given). */
function send(
  method: string,
  path: string,
  { headers = {}, body }: { headers?: OutgoingHttpHeaders; body?: Buffer | string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request(
      { host: '127.0.0.1', port: studioPort, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks).toString(),
            raw: Buffer.concat(chunks),
            continued,
          }),
        );
      },
    );
    req.on('error', reject);
    if (headers.expect) {
      // The body goes only once the server says continue.
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.flushHeaders();
    } else req.end(body);
  });
}

/** Every Content-Security-Policy header line of an answer. */
const policies = (a: Answer) =>
  a.rawHeaders
    .filter((_v, i) => i % 2 === 0)
    .flatMap((name, i) =>
      name.toLowerCase() === 'content-security-policy' ? [a.rawHeaders[2 * i + 1]!] : [],
    )
    .flatMap((v) => v.split(',').map((p) => p.trim()));

function expectSecurityHeaders(a: Answer) {
  const csp = policies(a);
  expect(csp, 'the studio’s CSP').toContainEqual(expect.stringContaining("default-src 'self'"));
  expect(csp, 'and the sandbox policy').toContain('sandbox');
  expect(a.headers['x-content-type-options']).toBe('nosniff');
}

describe('the proxy forwards only the API’s endpoints', () => {
  it('forwards each endpoint of the spec, method, path and query unchanged', async () => {
    const calls: Array<[string, string]> = [
      ['GET', '/v1/me'],
      ['GET', '/v1/models?type=image&subtype=default'],
      ['GET', '/v1/ai-tools?type=image'],
      ['GET', '/v1/ai-tools/style-transfer'],
      ['GET', '/v1/templates'],
      ['GET', '/v1/templates/neon-city-poster'],
      ['POST', '/v1/quote'],
      ['POST', '/v1/tasks'],
      ['GET', '/v1/tasks/task_123'],
      ['HEAD', '/v1/tasks/task_123'],
      ['POST', '/v1/uploads'],
      ['GET', '/v1/uploads/up_1'],
      ['POST', '/v1/describe-image'],
    ];
    for (const [method, path] of calls) {
      const a = await send(method, `/proxy${path}`, method === 'POST' ? { body: '{}' } : {});
      expect(a.status, `${method} ${path}`).toBe(200);
    }
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(calls.map(([m, p]) => `${m} ${p}`));
  });

  it('refuses every other path or method on the target host, without asking it', async () => {
    const refused: Array<[string, string]> = [
      ['GET', '/proxy/'],
      ['GET', '/proxy/evil.html'],
      ['GET', '/proxy/cdn/outputs/a.svg'],
      ['GET', '/proxy/v1/../evil.html'],
      ['GET', '/proxy/v1/tasks/..%2f..%2fevil.html'],
      ['GET', '/proxy/v1/tasks/%2e%2e'],
      ['GET', '/proxy/v1/tasks/..'],
      ['GET', '/proxy/v1/tasks/a/b'],
      ['GET', '/proxy/v1//me'],
      ['GET', '/proxy/v1/me/'],
      ['GET', '/proxy/v1/tasks'],
      ['DELETE', '/proxy/v1/tasks/task_123'],
      ['POST', '/proxy/v1/me'],
      ['PUT', '/proxy/v1/uploads'],
      ['GET', '/proxy/v2/me'],
    ];
    for (const [method, path] of refused) {
      const a = await send(method, path);
      expect(a.status, `${method} ${path}`).toBe(404);
      expect(JSON.parse(a.body).error.code).toBe('not_an_api_path');
      expectSecurityHeaders(a);
    }
    expect(seen).toEqual([]);
  });
});

describe('every proxied answer carries the security headers', () => {
  it('an HTML answer from the API cannot run script on the studio’s origin', async () => {
    handler = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html',
        'content-security-policy': "script-src 'unsafe-inline'",
        'x-content-type-options': 'sniff-away',
      });
      res.end('<script>alert(document.cookie)</script>');
    };
    const a = await send('GET', '/proxy/v1/templates/x');
    expect(a.status).toBe(200);
    expect(a.body).toContain('<script>');
    expectSecurityHeaders(a);
    expect(policies(a), 'the API’s own policy is not passed on').not.toContain("script-src 'unsafe-inline'");
  });

  it('also on the proxy’s own errors (unreachable, silent)', async () => {
    handler = () => undefined; // never answers
    const silent = await send('GET', '/proxy/v1/me');
    expect(silent.status).toBe(504);
    expectSecurityHeaders(silent);
  });

  it('the studio’s own pages have the CSP and nosniff too', async () => {
    const page = await send('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the build’s Brotli or gzip copy of a chunk, whichever the browser accepts, else the chunk as it is', async () => {
    const chunk = `/assets/${BIG_CHUNK}`;
    const br = await send('GET', chunk, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.raw).toString()).toBe(BIG_CHUNK_TEXT);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    const gz = await send('GET', chunk, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.raw).toString()).toBe(BIG_CHUNK_TEXT);
    const plain = await send('GET', chunk);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_CHUNK_TEXT);
  });

  it('serves the chunks and never their source maps', async () => {
    expect((await send('GET', '/assets/index-abc.js')).status).toBe(200);
    const map = await send('GET', '/assets/index-abc.js.map');
    expect(map.status).toBe(404);
    expect(map.body).not.toContain('version');
  });
});

describe('redirects', () => {
  it('are never followed: a 3xx becomes a 502 without its Location', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      seen.length = 0;
      handler = (_req, res) => {
        res.writeHead(status, { location: `${upstreamOrigin}/v1/me` });
        res.end();
      };
      const a = await send('POST', '/proxy/v1/tasks', { body: '{}' });
      expect(a.status, `${status}`).toBe(502);
      expect(a.headers.location).toBeUndefined();
      expect(JSON.parse(a.body).error).toMatchObject({ code: 'bad_gateway', type: 'api_error' });
      expect(seen, 'the API was asked once').toHaveLength(1);
    }
  });
});

describe('headers', () => {
  it('forwards the allow-list only: the key and the API’s headers, never cookies or hop-by-hop headers', async () => {
    await send('POST', '/proxy/v1/tasks', {
      headers: {
        authorization: 'Bearer gm_test_secret',
        'idempotency-key': 'idem-1',
        'content-type': 'application/json',
        cookie: 'session=abc',
        'proxy-authorization': 'Basic eDp5',
        connection: 'keep-alive, x-trace',
        'keep-alive': 'timeout=5',
        'x-trace': '1',
        te: 'trailers',
        upgrade: 'websocket',
        origin: 'http://127.0.0.1:4173',
        referer: 'http://127.0.0.1:4173/?model=x',
        'x-forwarded-for': '10.0.0.1',
      },
      body: '{"modelId":"x"}',
    });
    const [got] = seen;
    expect(got!.headers).toMatchObject({
      authorization: 'Bearer gm_test_secret',
      'idempotency-key': 'idem-1',
      'content-type': 'application/json',
      host: new URL(upstreamOrigin).host,
    });
    for (const name of [
      'cookie',
      'proxy-authorization',
      'keep-alive',
      'x-trace',
      'te',
      'upgrade',
      'origin',
      'referer',
      'x-forwarded-for',
    ]) {
      expect(got!.headers[name], name).toBeUndefined();
    }
  });

  it('answers with the API’s headers that matter, never its Set-Cookie', async () => {
    handler = (_req, res) => {
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': '7',
        'x-ratelimit-remaining': '0',
        'set-cookie': ['tracker=1; Path=/', 'other=2'],
        'access-control-allow-origin': '*',
        'x-powered-by': 'upstream',
      });
      res.end('{"error":{"type":"rate_limit_error","code":"rate_limited","message":"slow down"}}');
    };
    const a = await send('GET', '/proxy/v1/tasks/t1');
    expect(a.status).toBe(429);
    expect(a.headers['retry-after']).toBe('7');
    expect(a.headers['x-ratelimit-remaining']).toBe('0');
    expect(a.headers['set-cookie']).toBeUndefined();
    expect(a.headers['access-control-allow-origin']).toBeUndefined();
    expect(a.headers['x-powered-by']).toBeUndefined();
    expect(JSON.parse(a.body).error.code).toBe('rate_limited');
  });

  it('keeps Content-Length, so the API can refuse a large body early', async () => {
    handler = (req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    };
    const body = Buffer.alloc(123_456, 1);
    await send('POST', '/proxy/v1/uploads', {
      headers: { 'content-type': 'image/png', 'content-length': body.length },
      body,
    });
    expect(seen[0]!.headers['content-length']).toBe('123456');
    expect(seen[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(seen[0]!.bodyBytes).toBe(123_456);
  });
});

describe('Expect: 100-continue', () => {
  it('is asked of the API: its refusal comes back before the client sends the body', async () => {
    onExpect = (_req, res) => {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"error":{"type":"invalid_request_error","code":"file_too_large","message":"too big"}}');
    };
    const a = await send('POST', '/proxy/v1/uploads', {
      headers: { expect: '100-continue', 'content-type': 'image/png', 'content-length': 200 * 1024 * 1024 },
      body: Buffer.alloc(1024),
    });
    expect(a.status).toBe(413);
    expect(a.continued, 'the client was never asked for the body').toBe(false);
    expect(JSON.parse(a.body).error.code).toBe('file_too_large');
    expect(seen[0]!.headers.expect).toBe('100-continue');
    expect(seen[0]!.headers['content-length']).toBe(String(200 * 1024 * 1024));
  });

  it('and its 100 Continue is passed on: the body then goes through whole', async () => {
    handler = (req, res) => {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.end(JSON.stringify({ received: n })));
    };
    const a = await send('POST', '/proxy/v1/uploads', {
      headers: { expect: '100-continue', 'content-type': 'image/png', 'content-length': 50_000 },
      body: Buffer.alloc(50_000, 7),
    });
    expect(a.continued).toBe(true);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ received: 50_000 });
  });
});

describe('a hung API', () => {
  it('is given up after the timeout with a 504 in the spec’s error shape', async () => {
    handler = () => undefined; // accepts the request, never answers
    const started = Date.now();
    const a = await send('POST', '/proxy/v1/tasks', { body: '{}' });
    expect(a.status).toBe(504);
    expect(JSON.parse(a.body).error).toMatchObject({ type: 'api_error', code: 'gateway_timeout' });
    // Not before the timeout (whatever the machine's speed, a timer never fires early).
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
  });

  it('an API that cannot be reached is a 502', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    const settings = studioSettings(
      { STUDIO_PROXY_TARGET: `http://127.0.0.1:${port}` },
      { origin: 'http://127.0.0.1:4173' },
    );
    const other = createStudioServer(settings, dist);
    const otherPort = await listen(other);
    try {
      const a = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: otherPort, path: '/proxy/v1/me', agent: false },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(a.status).toBe(502);
      expect(JSON.parse(a.body).error.code).toBe('bad_gateway');
    } finally {
      other.close();
    }
  });
});

describe('the allowed API origins', () => {
  it('are the default, the sandbox and STUDIO_API_ORIGINS, in config.json and in the CSP', async () => {
    const config = JSON.parse((await send('GET', '/config.json')).body);
    expect(config.apiOrigins).toEqual([
      'http://127.0.0.1:4173',
      'http://127.0.0.1:4010',
      'https://staging.example.com',
      'https://api.example.com',
    ]);
    // With a proxy target, the default is the proxy on the studio's own origin.
    expect(config.defaultBaseUrl).toBe('http://127.0.0.1:4173/proxy/v1');
    const csp = (await send('GET', '/')).headers['content-security-policy'] as string;
    const connectSrc = csp.split(';').find((d) => d.trim().startsWith('connect-src'))!;
    for (const origin of config.apiOrigins) expect(connectSrc).toContain(origin);
  });

  it("the CSP's script-src names the build's inline script by its hash, and allows no other inline code", async () => {
    const csp = (await send('GET', '/')).headers['content-security-policy'] as string;
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '));
    expect(scriptSrc).toBe(`script-src 'self' ${INLINE_HASH}`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(() => withScriptSources(csp, ["'unsafe-inline'"])).toThrow(/Not a script hash/);
  });

  it('a setting that is not an http(s) URL is refused, naming the setting', () => {
    expect(() => studioSettings({ STUDIO_API_ORIGINS: 'api.example.com' }, { origin: 'http://x' })).toThrow(
      /STUDIO_API_ORIGINS/,
    );
    expect(() =>
      studioSettings(
        { STUDIO_API_ORIGINS: "https://a.example.com; script-src 'unsafe-inline'" },
        { origin: 'http://x' },
      ),
    ).toThrow(/STUDIO_API_ORIGINS/);
  });
});

describe('the team space on /sync', () => {
  const where = {
    origin: 'http://127.0.0.1:4173',
    sandbox: { baseUrl: 'http://127.0.0.1:4010/v1', origin: 'http://127.0.0.1:4010' },
  };
  const connectSrc = (csp: string) => csp.split(';').find((d) => d.trim().startsWith('connect-src'))!;

  it('checks keys against the default Base URL unless TEAM_SPACE_API_URL says otherwise; TEAM_SPACE=off has none', () => {
    expect(studioSettings({}, where).teamSpace).toEqual({
      path: '/sync',
      apiBaseUrl: 'http://127.0.0.1:4010/v1',
      maxDocumentBytes: 32 * 1024 * 1024,
    });
    expect(studioSettings({ TEAM_SPACE_API_URL: 'https://api.example.com/v1/' }, where).teamSpace).toEqual({
      path: '/sync',
      apiBaseUrl: 'https://api.example.com/v1',
      maxDocumentBytes: 32 * 1024 * 1024,
    });
    expect(studioSettings({ TEAM_SPACE: 'off' }, where).teamSpace).toBeUndefined();
    expect(() => studioSettings({ TEAM_SPACE_API_URL: 'api.example.com' }, where)).toThrow(
      /TEAM_SPACE_API_URL/,
    );
  });

  it('tells the studio the document limit the team space runs with (its members’ shares are parts of it)', () => {
    expect(studioSettings({ TEAM_SPACE_MAX_DOCUMENT_BYTES: '1048576' }, where).teamSpace).toMatchObject({
      maxDocumentBytes: 1_048_576,
    });
    expect(() => studioSettings({ TEAM_SPACE_MAX_DOCUMENT_BYTES: 'lots' }, where)).toThrow(
      /TEAM_SPACE_MAX_DOCUMENT_BYTES/,
    );
  });

  it("the CSP names the studio’s own ws: origin (WebKit did not match it by 'self')", () => {
    expect(connectSrc(studioSettings({}, where).csp)).toContain('ws://127.0.0.1:4173');
    expect(connectSrc(studioSettings({ TEAM_SPACE: 'off' }, where).csp)).not.toContain('ws:');
  });

  it('/config.json tells the studio only when the server runs it; other upgrades get a 404', async () => {
    const settings = studioSettings({}, where);
    const upgrades: string[] = [];
    const server = createStudioServer(settings, dist, {
      teamSpace: {
        handleUpgrade: (req, socket) => {
          if (req.url !== '/sync') return false;
          upgrades.push(req.url);
          socket.destroy();
          return true;
        },
      },
    });
    const port = await listen(server);
    try {
      const config = await (await fetch(`http://127.0.0.1:${port}/config.json`)).json();
      expect(config.teamSpace).toEqual({
        path: '/sync',
        apiBaseUrl: 'http://127.0.0.1:4010/v1',
        maxDocumentBytes: 32 * 1024 * 1024,
      });
      const upgrade = (path: string) =>
        new Promise<number | 'closed'>((resolve) => {
          const req = request({
            host: '127.0.0.1',
            port,
            path,
            agent: false,
            headers: { connection: 'Upgrade', upgrade: 'websocket' },
          });
          req.on('response', (res) => resolve(res.statusCode!));
          req.on('error', () => resolve('closed'));
          req.on('upgrade', () => resolve(101));
          req.end();
        });
      expect(await upgrade('/elsewhere')).toBe(404);
      expect(await upgrade('/sync')).toBe('closed');
      expect(upgrades).toEqual(['/sync']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    // Without a team space attached, config.json does not mention one.
    const plain = JSON.parse((await send('GET', '/config.json')).body);
    expect(plain.teamSpace).toBeUndefined();
  });
});

describe('HOST', () => {
  it('loopback is fine; anything else is refused unless --allow-remote, and then warned about', () => {
    expect(checkHosts(['127.0.0.1', 'localhost', '::1'], false)).toBeUndefined();
    expect(() => checkHosts(['0.0.0.0'], false)).toThrow(/--allow-remote/);
    expect(() => checkHosts(['127.0.0.1', '192.168.1.5'], false)).toThrow(/192\.168\.1\.5/);
    // Exact loopback addresses only: valid octets, no rebound names.
    expect(() => checkHosts(['127.999.0.1'], false)).toThrow(/127\.999/);
    expect(checkHosts(['0.0.0.0'], true)).toMatch(/^Warning: .*control API/);
  });

  it('npm start with HOST=0.0.0.0 exits at once with the refusal', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      env: { ...process.env, HOST: '0.0.0.0', PORT: '1', SANDBOX_PORT: '1', STUDIO_ALLOW_REMOTE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/HOST 0\.0\.0\.0 is not loopback.*Refused/);
  });

  it('npm start with a Redis URL but no database URL exits at once, naming both (a cluster node needs the two)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      env: {
        ...process.env,
        PORT: '1',
        SANDBOX_PORT: '1',
        TEAM_SPACE_REDIS_URL: 'redis://127.0.0.1:1',
        TEAM_SPACE_DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/TEAM_SPACE_REDIS_URL and TEAM_SPACE_DATABASE_URL go together/);
  });
});
