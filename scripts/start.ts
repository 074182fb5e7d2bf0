import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { existsSync, readFileSync } from 'node:fs';
import { startSandbox } from '../sandbox/src/server';
import { contentSecurityPolicy } from './csp';

// `npm start`: the built studio on PORT (4173) and a sandbox on SANDBOX_PORT (4010), with the studio's
// Base URL defaulting to that sandbox through /config.json.

const num = (v: string | undefined, fallback: number) => (v ? Number(v) : fallback);
const host = process.env.HOST ?? '127.0.0.1';
const port = num(process.env.PORT, 4173);

if (!existsSync('dist/index.html')) {
  console.error('No build found: run `npm run build` first (npm start does it for you).');
  process.exit(1);
}

const sandbox = await startSandbox({
  port: num(process.env.SANDBOX_PORT, 4010),
  host: process.env.SANDBOX_HOST ?? host,
  publicUrl: process.env.SANDBOX_PUBLIC_URL,
  taskMs: process.env.SANDBOX_TASK_MS ? Number(process.env.SANDBOX_TASK_MS) : undefined,
  moderationMs: process.env.SANDBOX_MODERATION_MS ? Number(process.env.SANDBOX_MODERATION_MS) : undefined,
  dataDir: process.env.SANDBOX_DATA_DIR,
  // The studio's own origin may use the sandbox's control API (the connect form lists its demo keys).
  allowedOrigins: [`http://${host}:${port}`],
});

// The real service may refuse cross-origin calls from the studio's origin. STUDIO_PROXY_TARGET (its
// {api_base_url}, e.g. https://api.example.com) makes this server forward /proxy/* there, so the
// studio calls its own origin: Base URL http://127.0.0.1:4173/proxy/v1. The key passes through in the
// Authorization header and is never logged.
const proxyTarget = process.env.STUDIO_PROXY_TARGET?.replace(/\/+$/, '');
const HOP_BY_HOP = [
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'origin',
  'referer',
];

const config = process.env.STUDIO_BASE_URL
  ? { defaultBaseUrl: process.env.STUDIO_BASE_URL }
  : proxyTarget
    ? { defaultBaseUrl: `http://${host}:${port}/proxy/v1` }
    : { defaultBaseUrl: sandbox.baseUrl, sandboxKeysUrl: `${sandbox.origin}/__sandbox/keys` };

const app = new Hono();
// Content-Security-Policy (issue 7): no inline script, calls only to the configured API and the sandbox,
// no plugins, no <base>, never framed. Outputs may come from the service's CDN, so images and media
// also load over https.
const csp = contentSecurityPolicy([new URL(config.defaultBaseUrl).origin, sandbox.origin]);
app.use('*', async (c, next) => {
  await next();
  if (!c.req.path.startsWith('/proxy/')) c.header('Content-Security-Policy', csp);
});
app.get('/config.json', (c) => c.json(config));
if (proxyTarget) {
  app.all('/proxy/*', async (c) => {
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    for (const h of HOP_BY_HOP) headers.delete(h);
    const upstream = await fetch(`${proxyTarget}${url.pathname.slice('/proxy'.length)}${url.search}`, {
      method: c.req.method,
      headers,
      body: c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : c.req.raw.body,
      // @ts-expect-error Node's fetch needs duplex for a streamed request body (uploads are streamed through).
      duplex: 'half',
    });
    const out = new Headers(upstream.headers);
    for (const h of ['content-encoding', 'content-length', 'transfer-encoding', 'connection']) out.delete(h);
    return new Response(upstream.body, { status: upstream.status, headers: out });
  });
}
// As any static host or CDN would: gzip, and hashed assets cached for good (their names change with them).
app.use('*', async (c, next) => (c.req.path.startsWith('/proxy/') ? next() : compress()(c, next)));
app.use('/assets/*', async (c, next) => {
  await next();
  if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
});
app.use('/*', serveStatic({ root: './dist' }));
// Single-page app: every other path is the studio itself.
const indexHtml = readFileSync('dist/index.html', 'utf8');
app.get('*', (c) => c.html(indexHtml));

const server = serve({ fetch: app.fetch, port, hostname: host }, () => {
  console.log(`Media Studio at http://${host}:${port}  (sandbox API at ${sandbox.baseUrl})`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void sandbox.close().then(() => process.exit(0));
  });
}
