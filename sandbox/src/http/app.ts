import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { UPLOAD_MAX_BYTES } from '../../../src/api/schemas/upload';
import { SandboxError, invalidPayload } from '../core/errors';
import { RATE_LIMITS, type RateGroup } from '../core/rate-limit';
import type { Sandbox } from '../core/sandbox';
import { FaultBook, parseFault } from './faults';
import { serveMedia } from './media-route';

// The HTTP face of the sandbox: spec 4 routes under /v1, the CDN under /cdn, the control API under
// /__sandbox (PRODUCT.md 4). Every refusal leaves here in the one spec 7 error shape.

type Env = { Bindings: Partial<HttpBindings> };

export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  keyName?: string;
}

export interface AppControls {
  /** Stop accepting connections for durationMs (connection refused), then come back. */
  outage?: (durationMs: number) => void;
}

const LOG_LIMIT = 10_000;
const STATUS_CODES: Record<number, string> = {
  400: 'invalid_payload',
  401: 'invalid_token',
  402: 'arrears',
  403: 'permission_denied',
  404: 'not_found',
  409: 'conflict',
  413: 'file_too_large',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function errorResponse(c: Context, err: SandboxError): Response {
  for (const [name, value] of Object.entries(err.options.headers ?? {})) c.header(name, value);
  return c.json(err.toBody(), err.status as 400);
}

/** Destroys the client's connection: what a network drop looks like to a browser. */
function dropConnection(c: Context<Env>): void {
  c.env?.incoming?.socket.destroy();
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) throw invalidPayload('The request body must be JSON.');
  try {
    return JSON.parse(text);
  } catch {
    throw invalidPayload('The request body is not valid JSON.');
  }
}

/** Reads a raw upload body, refusing past the 100 MB limit without buffering the rest. */
async function readUploadBody(c: Context): Promise<Buffer> {
  const stream = c.req.raw.body;
  if (!stream) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-upload: nobody is left to answer, and nothing was stored.
      throw invalidPayload('The upload was interrupted before the whole body arrived.');
    });
    if (done) break;
    size += value.byteLength;
    if (size > UPLOAD_MAX_BYTES) {
      await reader.cancel();
      throw new SandboxError(
        413,
        'file_too_large',
        `The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
        {
          extra: { maxBytes: UPLOAD_MAX_BYTES },
        },
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function createApp(sb: Sandbox, controls: AppControls = {}) {
  const app = new Hono<Env>();
  const faults = new FaultBook();
  let log: RequestLogEntry[] = [];

  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'Range'],
      exposeHeaders: ['Retry-After', 'Content-Length', 'Content-Range', 'Content-Type'],
      maxAge: 600,
    }),
  );

  // Request log: what the tests count (polls, uploads, charges). Never records the key itself.
  app.use('/v1/*', async (c, next) => {
    const entry: RequestLogEntry = {
      at: new Date(sb.clock.now()).toISOString(),
      method: c.req.method,
      path: c.req.path,
      status: 0,
      keyName: sb.keyNameOf(c.req.header('authorization')),
    };
    try {
      await next();
    } finally {
      entry.status = c.res.status;
      if (c.req.method !== 'OPTIONS') log.push(entry);
      if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT);
    }
  });

  app.use('/v1/*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const fault = faults.take(c.req.method, c.req.path);
    if (!fault) return next();
    if (fault.delayMs) await sleep(fault.delayMs);
    if (fault.drop === 'before') {
      dropConnection(c);
      return c.body(null, 500);
    }
    if (fault.status !== undefined) {
      if (fault.retryAfter !== undefined) c.header('Retry-After', String(fault.retryAfter));
      const body =
        fault.body ??
        new SandboxError(
          fault.status,
          STATUS_CODES[fault.status] ?? 'injected_fault',
          `Injected fault: HTTP ${fault.status}.`,
        ).toBody();
      return c.json(body as object, fault.status as 400);
    }
    await next();
    if (fault.drop === 'after') dropConnection(c);
  });

  const authed = (c: Context, group?: RateGroup) => {
    const key = sb.authenticate(c.req.header('authorization'));
    if (group) sb.limit(key, group);
    return key;
  };

  const v1 = new Hono<Env>();
  v1.get('/me', (c) => c.json(sb.me(authed(c, 'me'))));
  v1.get('/models', (c) => {
    authed(c);
    return c.json(sb.listModels(c.req.query('type'), c.req.query('subtype') ?? c.req.query('subType')));
  });
  v1.get('/ai-tools', (c) => {
    authed(c, 'ai-tools');
    return c.json(sb.listAiTools(c.req.query('type')));
  });
  v1.get('/ai-tools/:slug', (c) => {
    authed(c, 'ai-tools');
    return c.json(sb.getAiTool(c.req.param('slug')));
  });
  v1.get('/templates', (c) => {
    authed(c, 'templates');
    return c.json(sb.listTemplates(c.req.query('type')));
  });
  v1.get('/templates/:slug', (c) => {
    authed(c, 'templates');
    return c.json(sb.getTemplate(c.req.param('slug')));
  });
  v1.post('/quote', async (c) => {
    const key = authed(c, 'quote');
    return c.json(sb.quote(key, await readJson(c)));
  });
  v1.post('/tasks', async (c) => {
    const key = authed(c, 'tasks.create');
    const body = await readJson(c);
    return c.json(sb.submitTask(key, body, c.req.header('idempotency-key')));
  });
  v1.get('/tasks/:id', (c) => c.json(sb.getTask(authed(c, 'tasks.get'), c.req.param('id'))));
  v1.post('/uploads', async (c) => {
    const key = authed(c, 'uploads.create');
    const length = c.req.header('content-length');
    // spec 8: 413 is decided from Content-Length before a byte of the body is read.
    const contentType = sb.checkUploadHeaders(
      c.req.header('content-type'),
      length ? Number(length) : undefined,
    );
    const result = await sb.createUpload(key, contentType, await readUploadBody(c));
    return c.json(result.body, result.status as 200);
  });
  v1.get('/uploads/:id', (c) => {
    const result = sb.getUpload(authed(c, 'uploads.get'), c.req.param('id'));
    return c.json(result.body, result.status as 200);
  });
  v1.post('/describe-image', async (c) => {
    const key = authed(c, 'describe');
    return c.json(await sb.describe(key, await readJson(c)));
  });
  app.route('/v1', v1);

  app.on(['GET', 'HEAD'], '/cdn/*', async (c) => {
    const file = await sb.mediaFile(c.req.path);
    if (!file) throw new SandboxError(404, 'not_found', 'No such file.');
    return serveMedia(c, file);
  });

  // ---- control API (sandbox only) ----
  const control = new Hono<Env>();
  control.get('/keys', (c) => c.json(sb.demoKeys()));
  control.post('/reset', (c) => {
    sb.reset();
    faults.clear();
    log = [];
    return c.json({ ok: true });
  });
  control.post('/faults', async (c) => {
    try {
      const fault = faults.add(parseFault(await readJson(c)));
      return c.json(fault);
    } catch (err) {
      if (err instanceof SandboxError) throw err;
      throw invalidPayload(err instanceof Error ? err.message : 'invalid fault');
    }
  });
  control.get('/faults', (c) => c.json(faults.list()));
  control.delete('/faults', (c) => {
    faults.clear();
    return c.json({ ok: true });
  });
  control.get('/clock', (c) => c.json({ now: new Date(sb.clock.now()).toISOString() }));
  control.post('/clock', async (c) => {
    const body = (await readJson(c)) as { advanceMs?: unknown };
    if (typeof body?.advanceMs !== 'number' || !Number.isFinite(body.advanceMs) || body.advanceMs < 0) {
      throw invalidPayload('advanceMs must be a number >= 0.', 'advanceMs');
    }
    sb.clock.advance(body.advanceMs);
    sb.settle();
    return c.json({ now: new Date(sb.clock.now()).toISOString() });
  });
  control.get('/requests', (c) => c.json(log));
  // Benchmarks: e.g. {"tasks.create": 2000} to queue a thousand tasks on one key without waiting
  // out 17 minutes of POST /tasks windows. Every key, until reset.
  control.post('/limits', async (c) => {
    const body = (await readJson(c)) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidPayload('Expected an object.');
    const entries = Object.entries(body);
    for (const [group, value] of entries) {
      if (!Object.hasOwn(RATE_LIMITS, group)) throw invalidPayload(`Unknown rate group "${group}".`, group);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
        throw invalidPayload(`${group} must be an integer >= 1.`, group);
      }
    }
    for (const [group, value] of entries) sb.rate.setLimit(group as RateGroup, value as number);
    return c.json(
      Object.fromEntries(Object.keys(RATE_LIMITS).map((g) => [g, sb.rate.limitOf(g as RateGroup)])),
    );
  });
  control.post('/outage', async (c) => {
    const body = (await readJson(c)) as { durationMs?: unknown };
    if (typeof body?.durationMs !== 'number' || body.durationMs <= 0 || body.durationMs > 600_000) {
      throw invalidPayload('durationMs must be a number between 1 and 600000.', 'durationMs');
    }
    if (!controls.outage)
      throw new SandboxError(501, 'not_supported', 'This sandbox cannot simulate an outage.');
    // Answer first, then go away.
    setTimeout(() => controls.outage?.(body.durationMs as number), 50);
    return c.json({ ok: true, until: new Date(Date.now() + body.durationMs).toISOString() });
  });
  app.route('/__sandbox', control);

  app.get('/', (c) =>
    c.json({
      name: 'Media Studio sandbox',
      baseUrl: `${sb.config.publicUrl}/v1`,
      keys: `${sb.config.publicUrl}/__sandbox/keys`,
    }),
  );

  app.notFound((c) =>
    errorResponse(c, new SandboxError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}.`)),
  );
  app.onError((err, c) => {
    if (err instanceof SandboxError) return errorResponse(c, err);
    console.error('[sandbox] unexpected error', err);
    return errorResponse(c, new SandboxError(500, 'internal_error', 'The sandbox hit an unexpected error.'));
  });

  return app;
}
