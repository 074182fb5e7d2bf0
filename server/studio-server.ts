import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { TeamSpaceConfig } from '../contract/team-space-config';
import { CSP_HASHES, contentSecurityPolicy, withScriptSources, type CspHashes } from './csp';
import { PROXY_PREFIX, proxyRequest, type ProxyOptions } from './proxy';
import { teamSpaceEnv } from './team-space/env';
import { DEFAULT_LIMITS } from './team-space/limits';
import type { TeamSpace } from './team-space/team-space-server';

// The `npm start` server without its sandbox: the built studio with its CSP, /config.json, and the
// optional forwarding proxy. start.ts reads the environment and starts it; tests start it on a spare
// port against a fake API.

/** What /config.json tells the studio (src/app/config.ts reads it). */
export interface StudioConfigJson {
  defaultBaseUrl: string;
  sandboxKeysUrl?: string;
  /** The API origins the CSP lets the studio call (besides its own): the connect form warns outside them. */
  apiOrigins: string[];
  /**
   * Present when this server runs the team space (docs/team-space.md): its path and the API it checks keys
   * against.
   */
  teamSpace?: TeamSpaceConfig;
}

export interface StudioSettings {
  config: StudioConfigJson;
  csp: string;
  proxy?: ProxyOptions;
  /** The team space's settings, unless TEAM_SPACE=off. */
  teamSpace?: TeamSpaceConfig;
}

/** The team space's WebSocket path on the studio's origin. */
export const TEAM_SPACE_PATH = '/sync';

/** 30 s: the longest an API answer may keep the proxy waiting in silence before a 504. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;

/** An origin from a URL a person typed in a setting, or an error that says which setting is wrong. */
function originOf(value: string, setting: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return url.origin;
  } catch {
    throw new Error(`${setting}: "${value}" is not an http(s) URL.`);
  }
}

/**
 * The server's settings from the environment:
 * - STUDIO_BASE_URL: the Base URL the connect form starts with (default: the sandbox, or the proxy);
 * - STUDIO_API_ORIGINS: more API origins the studio may call (comma-separated), e.g. a staging service;
 * - STUDIO_PROXY_TARGET: the API host to forward /proxy/* to; STUDIO_PROXY_TIMEOUT_MS its silence limit;
 * - TEAM_SPACE=off: no team space; TEAM_SPACE_API_URL: the API Base URL the team space checks keys
 *   against (default: the studio's default Base URL); its limits (server/team-space/env.ts), of which
 *   /config.json tells the studio the document limit (each member's share of a room is a part of it).
 * The allowed origins are the CSP's connect-src (and img-src, media-src) and /config.json's apiOrigins.
 */
export function studioSettings(
  env: NodeJS.ProcessEnv,
  where: { origin: string; sandbox?: { baseUrl: string; origin: string } },
): StudioSettings {
  const proxyTarget = env.STUDIO_PROXY_TARGET?.replace(/\/+$/, '');
  if (proxyTarget) originOf(proxyTarget, 'STUDIO_PROXY_TARGET');
  const defaultBaseUrl =
    env.STUDIO_BASE_URL ??
    (proxyTarget ? `${where.origin}${PROXY_PREFIX}/v1` : (where.sandbox?.baseUrl ?? `${where.origin}/v1`));
  const extra = (env.STUDIO_API_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => originOf(s, 'STUDIO_API_ORIGINS'));
  const apiOrigins = [
    ...new Set([
      originOf(defaultBaseUrl, 'STUDIO_BASE_URL'),
      ...(where.sandbox ? [where.sandbox.origin] : []),
      ...extra,
    ]),
  ];
  const teamSpace: TeamSpaceConfig | undefined =
    env.TEAM_SPACE === 'off'
      ? undefined
      : {
          path: TEAM_SPACE_PATH,
          apiBaseUrl: (env.TEAM_SPACE_API_URL ?? defaultBaseUrl).replace(/\/+$/, ''),
          // As the team space started beside this server reads it (start.ts: teamSpaceEnv).
          maxDocumentBytes: teamSpaceEnv(env).limits?.maxDocumentBytes ?? DEFAULT_LIMITS.maxDocumentBytes,
        };
  if (teamSpace) originOf(teamSpace.apiBaseUrl, 'TEAM_SPACE_API_URL');
  // CSP3 lets connect-src 'self' match ws: on the same host and port, but WebKit long did not: the
  // team space's WebSocket origin is named as well.
  const csp = contentSecurityPolicy(apiOrigins, teamSpace ? [webSocketOriginOf(where.origin)] : []);
  const config: StudioConfigJson = {
    defaultBaseUrl,
    apiOrigins,
    ...(where.sandbox && !env.STUDIO_BASE_URL && !proxyTarget
      ? { sandboxKeysUrl: `${where.sandbox.origin}/__sandbox/keys` }
      : {}),
  };
  const timeoutMs = Number(env.STUDIO_PROXY_TIMEOUT_MS ?? DEFAULT_PROXY_TIMEOUT_MS);
  if (!(timeoutMs > 0)) throw new Error('STUDIO_PROXY_TIMEOUT_MS: a positive number of milliseconds.');
  return {
    config,
    csp,
    ...(proxyTarget ? { proxy: { target: proxyTarget, csp, timeoutMs } } : {}),
    ...(teamSpace ? { teamSpace } : {}),
  };
}

/** http://host:port -> ws://host:port (https -> wss). */
const webSocketOriginOf = (origin: string) => origin.replace(/^http/, 'ws');

// The HOST check is shared with the sandbox, whose own command line uses it too (node-shared/hosts.ts).
export { checkHosts } from '../node-shared/hosts';

/**
 * The studio's HTTP server (not yet listening). `distDir` holds the built studio. With `teamSpace`
 * (server/team-space/), WebSocket upgrades on its path go to it and /config.json says so.
 */
export function createStudioServer(
  settings: StudioSettings,
  distDir: string,
  {
    teamSpace,
  }: { teamSpace?: Pick<TeamSpace, 'handleUpgrade'> & Partial<Pick<TeamSpace, 'handleRequest'>> } = {},
): Server {
  const { proxy } = settings;
  // index.html's inline script (the theme, the language, the loader: scripts/first-paint.ts), allowed by
  // the hash the build computed.
  const hashesFile = join(distDir, CSP_HASHES);
  const csp = existsSync(hashesFile)
    ? withScriptSources(settings.csp, (JSON.parse(readFileSync(hashesFile, 'utf8')) as CspHashes).scriptSrc)
    : settings.csp;
  const config: StudioConfigJson =
    teamSpace && settings.teamSpace ? { ...settings.config, teamSpace: settings.teamSpace } : settings.config;
  const app = new Hono();
  // Content-Security-Policy (docs/deploying.md): no inline script but index.html's own, calls only to the allowed API origins, no
  // plugins, no <base>, never framed. Outputs may come from the service's CDN, so images and media
  // also load over https.
  app.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
  });
  app.get('/config.json', (c) => c.json(config));
  // As a static host or CDN would: the build's Brotli or gzip copy of a file, whichever the browser accepts
  // (scripts/precompress.ts), else gzip made on the fly; hashed assets cached for good (their names
  // change with them).
  app.use('*', compress());
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  // Source maps are built beside the chunks for an error tracker or a debugger, and named by none of
  // them ('hidden'): they are not served (docs/testing.md).
  app.get('/assets/*', async (c, next) => (c.req.path.endsWith('.map') ? c.notFound() : next()));
  app.use('/*', serveStatic({ root: distDir, precompressed: true }));
  // Single-page app: every other path is the studio itself.
  const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  app.get('*', (c) => c.html(indexHtml));

  const studio = getRequestListener(app.fetch);
  const isProxied = (url: string | undefined) =>
    !!proxy && !!url && (url === PROXY_PREFIX || url.startsWith(`${PROXY_PREFIX}/`));
  /** The team's history (the team space's HTTP routes, under its path), then the studio. */
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (!teamSpace?.handleRequest || !settings.teamSpace) return void studio(req, res);
    teamSpace.handleRequest(req, res).then(
      (answered) => answered || void studio(req, res),
      () => res.headersSent || res.writeHead(500).end(),
    );
  };
  const server = createServer((req, res) => {
    if (isProxied(req.url)) proxyRequest(proxy!, req, res);
    else serve(req, res);
  });
  // `Expect: 100-continue`: the proxy asks the API first; anything else continues at once (Node's default).
  server.on('checkContinue', (req, res) => {
    if (isProxied(req.url)) proxyRequest(proxy!, req, res, true);
    else {
      res.writeContinue();
      serve(req, res);
    }
  });
  server.on('upgrade', (req, socket, head) => {
    if (teamSpace && settings.teamSpace && teamSpace.handleUpgrade(req, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  return server;
}
