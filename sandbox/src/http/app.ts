import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { rm } from 'node:fs/promises';
import { cors } from 'hono/cors';
import { UPLOAD_MAX_BYTES } from '../../../contract/upload';
import type { ApiErrorCode } from '../../../contract/error';
import { DAY_MS, MAX_CLOCK_OFFSET_MS } from '../core/clock';
import { SandboxError, invalidPayload } from '../core/errors';
import { RATE_LIMITS, type RateGroup } from '../core/rate-limit';
import type { Sandbox } from '../core/sandbox';
import { UploadScanner } from '../core/uploads';
import { CONTROL_JSON_MAX_BYTES, readJson, streamToFile } from './body';
import { FaultBook, parseFault, isRuleRefusal } from './faults';
import { OriginPolicy } from './origins';
import { serveMedia } from './media-route';

// The HTTP face of the sandbox: api-notes §4 routes under /v1, the CDN under /cdn, the control API under
// /__sandbox (product-notes §4). Every refusal leaves here in the one api-notes §7 error shape.

/** `created`: what the request log keeps of the task a POST /v1/tasks made (or answered again). */
type Env = { Bindings: Partial<HttpBindings>; Variables: { created?: CreatedTask } };

/** The task a POST /v1/tasks made: its id, and its prompt cut to LOG_PROMPT_MAX characters. */
interface CreatedTask {
  taskId: string;
  prompt: string;
}

/** One request as GET /__sandbox/requests shows it. */
export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  keyName?: string;
  /** POST /v1/tasks answered 200: the task's id and prompt (cut), so a test can see the order they came in. */
  created?: CreatedTask;
}

/**
 * What the log keeps of a request: only what GET /__sandbox/requests shows (tests count polls, uploads
 * and charges by method, path, status and key name), the time as a number, and the path cut to
 * LOG_PATH_MAX characters: every id of the API fits, and a request with a 8 KB path (which needs no key)
 * costs no more than any other. A task made by POST /v1/tasks adds its id and its prompt cut to
 * LOG_PROMPT_MAX characters (a 10,000-character prompt costs the log no more than a short one).
 */
interface LoggedRequest {
  at: number;
  method: string;
  path: string;
  status: number;
  keyName?: string;
  created?: CreatedTask;
}

export interface AppControls {
  /**
   * Stop accepting connections for durationMs (connection refused), then come back. Answers when the
   * sandbox will be back (epoch ms); an outage that overlaps a running one extends it.
   */
  outage?: (durationMs: number) => number;
  /** Origins allowed to use the control API and read uploads; the server fills in its own origin. */
  origins?: OriginPolicy;
}

const LOG_LIMIT = 10_000;
const LOG_PATH_MAX = 200;
const LOG_PROMPT_MAX = 200;
const STATUS_CODES: Record<number, ApiErrorCode> = {
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

const uploadTooLarge = () =>
  new SandboxError(413, 'file_too_large', `The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`, {
    extra: { maxBytes: UPLOAD_MAX_BYTES },
    headers: { Connection: 'close' },
  });

export function createApp(sb: Sandbox, controls: AppControls = {}) {
  const app = new Hono<Env>();
  const faults = new FaultBook();
  const origins = controls.origins ?? new OriginPolicy();
  let log: LoggedRequest[] = [];

  // The API answers the studio's origins (the sandbox's own and the allowed ones) and clients that are
  // not web pages (no Origin: curl, Node, the proxy, Playwright's request context); a page elsewhere is
  // refused before anything runs, preflights included, so it cannot spend a user's credits or push their
  // uploads out of storage even if it learnt a key. --api-any-origin answers every origin with `*`
  // (README: Origins).
  app.use('/v1/*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origins.allowsApi(origin)) return next();
    return errorResponse(
      c,
      new SandboxError(
        403,
        'origin_not_allowed',
        `Origin ${origin} may not call the sandbox's API. Allow it with --allow-origin (or --api-any-origin).`,
      ),
    );
  });
  app.use(
    '/v1/*',
    cors({
      origin: (origin) => (origins.apiAnyOrigin ? '*' : origin),
      allowMethods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'Range'],
      exposeHeaders: ['Retry-After', 'Content-Length', 'Content-Range', 'Content-Type'],
      maxAge: 600,
    }),
  );

  // Media: outputs and catalog art may be read by any origin (a CDN's files are public, and the studio
  // downloads outputs with fetch); uploads, a user's own files, only by the sandbox's own origin and the
  // allowed ones. Any page may still show a file whose URL it knows in <img>/<video> (no CORS there).
  app.use('/cdn/*', async (c, next) => {
    const origin = c.req.header('origin');
    const privateFile = c.req.path.startsWith('/cdn/uploads/');
    // Uploads answer only at the sandbox's own names, like the control API: on a rebound DNS name a
    // page would otherwise read them as same-origin, with no Origin to refuse.
    const wrongHost = privateFile ? origins.checkHost(c.req.header('host')) : null;
    if (wrongHost) return errorResponse(c, new SandboxError(403, 'origin_not_allowed', wrongHost));
    if (privateFile && origin !== undefined && !origins.allows(origin))
      return errorResponse(
        c,
        new SandboxError(403, 'origin_not_allowed', `Origin ${origin} may not read uploaded files.`),
      );
    const allowOrigin = privateFile ? origin : '*';
    if (c.req.method === 'OPTIONS') {
      const headers: Record<string, string> = {
        'Access-Control-Allow-Methods': 'GET, HEAD',
        'Access-Control-Allow-Headers': 'Range',
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      };
      if (allowOrigin) headers['Access-Control-Allow-Origin'] = allowOrigin;
      return c.body(null, 204, headers);
    }
    await next();
    if (allowOrigin) c.header('Access-Control-Allow-Origin', allowOrigin);
    c.header('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Content-Type');
    if (privateFile) c.header('Vary', 'Origin');
  });

  // The control API: same-origin and allowed origins only (no `*`), checked before anything runs, so a
  // refused page can neither read an answer nor cause an effect (README: Origins).
  app.use('/__sandbox/*', async (c, next) => {
    const origin = c.req.header('origin');
    const refusal = origins.check({
      origin,
      host: c.req.header('host'),
      fetchSite: c.req.header('sec-fetch-site'),
    });
    if (refusal) return errorResponse(c, new SandboxError(403, 'origin_not_allowed', refusal));
    if (origin !== undefined) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Vary', 'Origin');
    }
    if (c.req.method === 'OPTIONS') {
      return c.body(null, 204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
      });
    }
    await next();
  });

  // Request log: what the tests count (polls, uploads, charges). Never records the key itself.
  app.use('/v1/*', async (c, next) => {
    const path = c.req.path;
    const entry: LoggedRequest = {
      at: sb.clock.now(),
      method: c.req.method,
      path: path.length > LOG_PATH_MAX ? `${path.slice(0, LOG_PATH_MAX)}…` : path,
      status: 0,
      keyName: sb.keyNameOf(c.req.header('authorization')),
    };
    try {
      await next();
    } finally {
      entry.status = c.res.status;
      const created = c.get('created');
      if (created && entry.status === 200) entry.created = created;
      if (c.req.method !== 'OPTIONS') log.push(entry);
      if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT / 2);
    }
  });

  app.use('/v1/*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    // A repeat of a key that made a task is answered with that task (api-v1 §4 rule 7) before any rule
    // could refuse it: a fault standing for such a refusal waits for the next request.
    const repeat =
      c.req.method === 'POST' &&
      c.req.path === '/v1/tasks' &&
      sb.isRepeat(c.req.header('authorization'), c.req.header('idempotency-key'));
    const fault = faults.take(c.req.method, c.req.path, (f) => !(repeat && isRuleRefusal(f)));
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
          Object.hasOwn(STATUS_CODES, fault.status) ? STATUS_CODES[fault.status]! : 'injected_fault',
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
    const task = sb.submitTask(key, body, c.req.header('idempotency-key'));
    const prompt = (body as { params?: { prompt?: unknown } } | null)?.params?.prompt;
    c.set('created', {
      taskId: task.taskId,
      prompt: typeof prompt === 'string' ? prompt.slice(0, LOG_PROMPT_MAX) : '',
    });
    return c.json(task);
  });
  v1.get('/tasks/:id', async (c) => c.json(await sb.getTask(authed(c, 'tasks.get'), c.req.param('id'))));
  v1.post('/uploads', async (c) => {
    const key = authed(c, 'uploads.create');
    const length = c.req.header('content-length');
    // api-notes §8: 413 is decided from Content-Length before a byte of the body is read.
    const contentType = sb.checkUploadHeaders(c.req.header('content-type'), undefined);
    // The refusal closes the connection (the body stays unread), as the JSON routes' does.
    if (length && Number(length) > UPLOAD_MAX_BYTES) throw uploadTooLarge();
    // The body goes to disk as it arrives, scanned on the way; the checks then read the file (README: Limits).
    const file = sb.media.newUploadFile();
    try {
      const scanner = new UploadScanner();
      await streamToFile(c, file, UPLOAD_MAX_BYTES, uploadTooLarge, (chunk) => scanner.feed(chunk));
      const result = await sb.createUpload(key, contentType, scanner.received(file));
      return c.json(result.body, result.status as 200);
    } finally {
      await rm(file, { force: true }); // moved into the media store when accepted; a refused one goes
    }
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
  const controlJson = (c: Context) => readJson(c, { limit: CONTROL_JSON_MAX_BYTES, strictType: true });
  control.get('/keys', (c) => c.json(sb.demoKeys()));
  control.post('/reset', async (c) => {
    // No body is needed; one that is sent must still be JSON (a form post is refused).
    if (c.req.header('content-type') !== undefined) await controlJson(c);
    await sb.reset();
    faults.clear();
    log = [];
    return c.json({ ok: true });
  });
  control.post('/faults', async (c) => {
    const body = await controlJson(c);
    try {
      const fault = faults.add(parseFault(body));
      return c.json(fault);
    } catch (err) {
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
    const body = (await controlJson(c)) as { advanceMs?: unknown } | null;
    const advanceMs = typeof body === 'object' && body !== null ? body.advanceMs : undefined;
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
      throw invalidPayload('advanceMs must be a number >= 0.', 'advanceMs');
    }
    if (!sb.clock.canAdvance(advanceMs)) {
      throw invalidPayload(
        `advanceMs would move the clock more than ${MAX_CLOCK_OFFSET_MS / DAY_MS} days ahead of real time; reset first.`,
        'advanceMs',
        { maxOffsetMs: MAX_CLOCK_OFFSET_MS, offsetMs: sb.clock.offset },
      );
    }
    sb.clock.advance(advanceMs);
    sb.settle();
    return c.json({ now: new Date(sb.clock.now()).toISOString() });
  });
  control.get('/requests', (c) =>
    c.json(log.map((e): RequestLogEntry => ({ ...e, at: new Date(e.at).toISOString() }))),
  );
  // Benchmarks: e.g. {"tasks.create": 2000} to queue a thousand tasks on one key without waiting
  // out 17 minutes of POST /tasks windows. Every key, until reset.
  control.post('/limits', async (c) => {
    // JSON only, small, like every control API body (README: Origins): no text/plain form post.
    const body = (await controlJson(c)) as Record<string, unknown> | null;
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
    const body = (await controlJson(c)) as { durationMs?: unknown } | null;
    const durationMs = typeof body === 'object' && body !== null ? body.durationMs : undefined;
    if (
      typeof durationMs !== 'number' ||
      !Number.isInteger(durationMs) ||
      durationMs <= 0 ||
      durationMs > 600_000
    ) {
      throw invalidPayload('durationMs must be a whole number between 1 and 600000.', 'durationMs');
    }
    if (!controls.outage)
      throw new SandboxError(501, 'not_supported', 'This sandbox cannot simulate an outage.');
    // Answered first; the listener goes away shortly after. Overlapping outages merge into one.
    const until = controls.outage(durationMs);
    return c.json({ ok: true, until: new Date(until).toISOString() });
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
