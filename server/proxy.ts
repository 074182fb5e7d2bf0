import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lingeringClose } from '../node-shared/lingering-close';

/**
 * The `npm start` server's forwarding proxy (STUDIO_PROXY_TARGET): the studio on its own origin calls
 * /proxy/v1/..., and this forwards the call to the API when the service refuses cross-origin calls.
 *
 * It runs on the origin that holds a remembered key, so it forwards as little as it can (docs/deploying.md):
 * - only the API's own endpoints (api-notes §4), method and path, nothing else on the target host;
 * - an allow-list of request headers (the key's Authorization, never Cookie, Proxy-Authorization or a
 *   hop-by-hop header) and of answer headers (never Set-Cookie);
 * - every answer, the proxy's own included, carries the studio's CSP, `Content-Security-Policy: sandbox`
 *   and `X-Content-Type-Options: nosniff`, so an HTML or SVG answer cannot run script here;
 * - redirects are never followed: a 3xx becomes a 502;
 * - Content-Length passes through (the API can refuse a large upload before reading it), and
 *   `Expect: 100-continue` is asked of the API before the client sends the body;
 * - an API silent for `timeoutMs` gets a 504 (which the studio retries, api-notes §7).
 * Bytes pass through untouched, streamed both ways; the key is never logged.
 */

export interface ProxyOptions {
  /** The API's host, e.g. https://api.example.com (its {api_base_url}; paths start with /v1). */
  target: string;
  /** The studio's Content-Security-Policy, sent on every proxied answer. */
  csp: string;
  /** An API silent this long (no headers, no body bytes) is given up: 504. */
  timeoutMs: number;
}

/** How long an `Expect: 100-continue` waits for the API's 100 before the body goes anyway (as curl). */
const EXPECT_WAIT_MS = 1_000;

/** The paths the studio's requests use, under this prefix. */
export const PROXY_PREFIX = '/proxy';

const SEGMENT = '[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,255}';
/** api-notes §4: every endpoint of the API, by method. HEAD goes wherever GET does. */
const ENDPOINTS: ReadonlyArray<{ method: 'GET' | 'POST'; path: RegExp }> = [
  { method: 'GET', path: /^\/v1\/me$/ },
  { method: 'GET', path: /^\/v1\/models$/ },
  { method: 'GET', path: /^\/v1\/ai-tools$/ },
  { method: 'GET', path: new RegExp(`^/v1/ai-tools/${SEGMENT}$`) },
  { method: 'GET', path: /^\/v1\/templates$/ },
  { method: 'GET', path: new RegExp(`^/v1/templates/${SEGMENT}$`) },
  { method: 'POST', path: /^\/v1\/quote$/ },
  { method: 'POST', path: /^\/v1\/tasks$/ },
  { method: 'GET', path: new RegExp(`^/v1/tasks/${SEGMENT}$`) },
  { method: 'POST', path: /^\/v1\/uploads$/ },
  { method: 'GET', path: new RegExp(`^/v1/uploads/${SEGMENT}$`) },
  { method: 'POST', path: /^\/v1\/describe-image$/ },
];

/** Request headers the API reads (api-notes §4, §5) and the ones a fetch carries that are harmless to it. */
const REQUEST_HEADERS = new Set([
  'accept',
  'accept-language',
  'authorization',
  'cache-control',
  'content-length',
  'content-type',
  'idempotency-key',
  'if-modified-since',
  'if-none-match',
  'range',
  'user-agent',
]);

/** Answer headers passed back: the body's description, caching, and the API's own (Retry-After, limits). */
const ANSWER_HEADERS = new Set([
  'accept-ranges',
  'cache-control',
  'content-encoding',
  'content-language',
  'content-length',
  'content-range',
  'content-type',
  'date',
  'etag',
  'expires',
  'last-modified',
  'retry-after',
  'vary',
]);
const isApiHeader = (name: string) => name.startsWith('x-ratelimit-') || name === 'x-request-id';

/** Whether `method path` (the part after /proxy) is one of the API's endpoints. */
export function isApiEndpoint(method: string, path: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  return ENDPOINTS.some((e) => e.method === m && e.path.test(path));
}

/** The headers of the forwarded request: the allow-list only. */
export function forwardedRequestHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !REQUEST_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The API's answer headers that are passed back: the allow-list only. */
export function answerHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || !(ANSWER_HEADERS.has(name) || isApiHeader(name))) continue;
    out[name] = value;
  }
  return out;
}

/**
 * On every answer (docs/deploying.md): two policies, the studio's and `sandbox` (a document answered here
 * gets an opaque origin), and nosniff. The API's own values of these headers are never passed back.
 */
function setSecurityHeaders(res: ServerResponse, csp: string) {
  res.setHeader('Content-Security-Policy', [csp, 'sandbox']);
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/** The proxy's own answers, in the spec's error shape (api-notes §7). */
function answerError(res: ServerResponse, csp: string, status: number, code: string, message: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const type = status === 404 || status === 405 || status === 400 ? 'invalid_request_error' : 'api_error';
  const body = JSON.stringify({ error: { type, code, message } });
  setSecurityHeaders(res, csp);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/**
 * Handles one request under /proxy/. `expectContinue` is true when Node handed it over as
 * `checkContinue` (the client sent `Expect: 100-continue` and waits before sending the body).
 */
export function proxyRequest(
  options: ProxyOptions,
  req: IncomingMessage,
  res: ServerResponse,
  expectContinue = false,
): void {
  const { csp } = options;
  const raw = req.url ?? '/';
  const queryAt = raw.indexOf('?');
  const rawPath = (queryAt === -1 ? raw : raw.slice(0, queryAt)).slice(PROXY_PREFIX.length);
  const search = queryAt === -1 ? '' : raw.slice(queryAt);
  const method = req.method ?? 'GET';
  // The raw path, not a decoded or normalised one: `..`, `%2e`, `%2f` and backslashes never match.
  if (!isApiEndpoint(method, rawPath)) {
    req.resume();
    answerError(res, csp, 404, 'not_an_api_path', `This proxy forwards only the API's endpoints.`);
    return;
  }

  const target = new URL(options.target);
  const headers = forwardedRequestHeaders(req.headers);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // Asked of the API, so that it can refuse (413, 401...) before the client sends the body.
  if (expectContinue && hasBody) headers.expect = '100-continue';
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const basePath = target.pathname.replace(/\/+$/, '');
  const upstream = send({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port || undefined,
    method,
    path: `${basePath}${rawPath}${search}`,
    headers: { ...headers, host: target.host },
    // Node's client never follows redirects; a fresh connection per request keeps nothing between users.
    agent: false,
  });

  let done = false;
  const fail = (status: number, code: string, message: string) => {
    if (done) return;
    done = true;
    clearTimeout(expectTimer);
    upstream.destroy();
    req.unpipe(upstream);
    req.resume();
    answerError(res, csp, status, code, message);
  };

  // Any silence this long, waiting for headers or in the middle of a body, ends the exchange.
  upstream.setTimeout(options.timeoutMs, () => {
    if (res.headersSent) {
      // Silent in the middle of a body: the client sees the connection end, not a truncated success.
      upstream.destroy();
      res.destroy();
      return;
    }
    fail(504, 'gateway_timeout', `The API did not answer within ${Math.round(options.timeoutMs / 1000)} s.`);
  });
  upstream.on('error', () => fail(502, 'bad_gateway', 'The API could not be reached.'));
  let bodySent = false;
  /** Whether the client's whole body went to the API. */
  let bodyDone = false;
  req.once('end', () => (bodyDone = true));
  let expectTimer: NodeJS.Timeout | undefined;
  const sendBody = () => {
    clearTimeout(expectTimer);
    if (bodySent || done) return;
    bodySent = true;
    if (expectContinue && !res.headersSent) res.writeContinue();
    req.pipe(upstream);
  };
  upstream.on('continue', sendBody);
  upstream.on('response', (answer) => {
    if (done) {
      answer.resume();
      return;
    }
    const status = answer.statusCode ?? 502;
    if (status >= 300 && status < 400 && status !== 304) {
      answer.resume();
      fail(502, 'bad_gateway', `The API answered with a redirect (HTTP ${status}), which is not followed.`);
      return;
    }
    done = true;
    clearTimeout(expectTimer);
    // Answered before the whole body went (api-notes §8: a 413 is decided from Content-Length): the
    // answer is final, nothing more goes to the API, and the rest of the client's body is read and
    // dropped after the answer, so that the client reads the answer rather than a reset connection.
    const early = hasBody && !bodyDone;
    if (early) {
      req.unpipe(upstream);
      req.resume();
      lingeringClose(req, res);
    }
    setSecurityHeaders(res, csp);
    res.writeHead(status, answerHeaders(answer.headers));
    answer.pipe(res);
    answer.on('error', () => {
      // The API may close its side once it has answered early: a whole answer is still whole.
      if (!answer.complete) res.destroy();
    });
    // Answered early: the request to the API is over without the rest of the body.
    answer.on('end', () => {
      if (early) upstream.destroy();
    });
    // The client left: nobody reads the rest.
    res.on('close', () => {
      if (!res.writableFinished) answer.destroy();
    });
  });
  // The client went away before the answer: the API's connection goes too.
  res.on('close', () => {
    if (!done) {
      done = true;
      upstream.destroy();
    }
  });

  if (!hasBody) upstream.end();
  else if (!expectContinue) sendBody();
  else {
    // With Expect: the body is asked for on the API's 100 Continue (above); a final answer instead of it
    // is passed back as any answer is, and the body is never asked for.
    upstream.flushHeaders();
    // An API that ignores Expect gets the body after a second anyway, as curl does.
    expectTimer = setTimeout(sendBody, EXPECT_WAIT_MS);
  }
}
