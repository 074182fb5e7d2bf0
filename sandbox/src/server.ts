import { createAdaptorServer } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from './core/sandbox';
import { createApp } from './http/app';
import { lingeringClose } from '../../node-shared/lingering-close';
import { hostForListen, hostForUrl } from '../../node-shared/hosts';
import { OriginPolicy } from './http/origins';
import { mediaWorks } from './media/works';
import { attachPersistence, loadDemoKeys, sandboxFolderIn } from './persistence';

// Starts a listening sandbox. Used by the CLI, `npm start`, the HTTP tests (port 0) and the benchmark.

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Origin for media URLs; defaults to http://<host>:<port>. */
  publicUrl?: string;
  taskMs?: number;
  moderationMs?: number;
  rateLimits?: boolean;
  /** Keep state in this folder across restarts; without it state is lost on exit (README: Storage). */
  dataDir?: string;
  /**
   * Web origins besides the sandbox's own that may use the control API (/__sandbox/*) and read
   * uploads with fetch: the studio's origin (`npm start` passes it). Never `*`. The API (/v1) answers
   * these origins too, and no other web page, unless `apiAnyOrigin`.
   */
  allowedOrigins?: string[];
  /** The API (/v1) answers any web origin (`Access-Control-Allow-Origin: *`), for testing another client. */
  apiAnyOrigin?: boolean;
  /** Bytes of media kept in memory (default 64 MiB) and on disk (default 2 GiB). */
  mediaMemoryBytes?: number;
  mediaDiskBytes?: number;
  /** How long an idle kept-alive connection stays open (Node's default, 5 s, unless set). */
  keepAliveMs?: number;
}

export interface RunningSandbox {
  origin: string;
  baseUrl: string;
  sandbox: Sandbox;
  /** Whether /v1 answers every web origin (SandboxOptions.apiAnyOrigin). */
  apiAnyOrigin: boolean;
  close(): Promise<void>;
}

/** Temporary media folders of the sandboxes running in this process, deleted at exit whatever happens. */
const tempDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of tempDirs) removeFolder(dir);
});

/**
 * Deletes a media folder; false when it could not. A render still running when its sandbox closes (a
 * task's output being drawn) can add a file while the folder is emptied (ENOTEMPTY): the removal is
 * tried again a few times, and a folder that still cannot go is left to the exit's removal, never thrown
 * at whoever closed the sandbox.
 */
function removeFolder(dir: string): boolean {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 8, retryDelay: 25 });
    return true;
  } catch {
    return false;
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = hostForListen(options.host ?? '127.0.0.1');
  // Media bytes live on disk: in the data folder, or in a folder of our own deleted on close and exit.
  // In a data folder, everything goes into a folder of the sandbox's own making inside it (README: Storage).
  const ownDir = options.dataDir ? sandboxFolderIn(options.dataDir) : undefined;
  const tempDir = ownDir ? undefined : mkdtempSync(join(tmpdir(), 'media-studio-sandbox-'));
  if (tempDir) tempDirs.add(tempDir);
  const removeTemp = () => {
    if (tempDir && removeFolder(tempDir)) tempDirs.delete(tempDir);
  };
  const sandbox = new Sandbox({
    publicUrl: options.publicUrl ?? '',
    taskMs: options.taskMs ?? 4000,
    moderationMs: options.moderationMs ?? 6000,
    rateLimits: options.rateLimits,
    mediaDir: ownDir ?? tempDir!,
    mediaMemoryBytes: options.mediaMemoryBytes,
    mediaDiskBytes: options.mediaDiskBytes,
    works: mediaWorks,
    demoKeys: ownDir ? loadDemoKeys(ownDir) : undefined,
  });
  const origins = new OriginPolicy();
  origins.setAllowed(options.allowedOrigins ?? []);
  origins.apiAnyOrigin = options.apiAnyOrigin ?? false;
  let port = options.port ?? 4010;
  let closed = false;

  // POST /__sandbox/outage: one outage at a time. One that overlaps a running outage extends it (the
  // later end wins); the listener is closed once and opened once, so nothing can listen twice.
  let outageEnd = 0;
  let relisten: NodeJS.Timeout | undefined;
  /** Set while the listener is going away: answers still in flight close their connection. */
  let down = false;
  const comeBack = () => {
    relisten = undefined;
    if (closed) return;
    const wait = outageEnd - Date.now();
    if (wait > 0) {
      relisten = setTimeout(comeBack, wait);
      return;
    }
    outageEnd = 0;
    down = false;
    if (!server.listening) server.listen(port, host);
  };
  const outage = (durationMs: number): number => {
    const end = Date.now() + 50 + durationMs;
    outageEnd = Math.max(outageEnd, end);
    if (!relisten) {
      // The answer to the POST goes out first; then the listener goes away. Requests already being
      // answered (other POSTs to /outage among them) finish, on connections that then close; whatever is
      // still open a moment later is dropped.
      relisten = setTimeout(() => {
        down = true;
        if (server.listening) server.close();
        server.closeIdleConnections();
        setTimeout(() => {
          if (down) server.closeAllConnections();
        }, 500);
        relisten = setTimeout(comeBack, Math.max(0, outageEnd - Date.now()));
      }, 50);
    }
    return outageEnd;
  };

  const app = createApp(sandbox, { outage, origins });
  const persistence = ownDir ? attachPersistence(sandbox, ownDir) : undefined;
  const server = createAdaptorServer({
    hostname: host,
    fetch: async (req, env) => {
      const res = await app.fetch(req, env);
      // Answered before the whole body arrived (an early 413, a 401...): node-shared/lingering-close.ts.
      if (env.incoming instanceof IncomingMessage && env.outgoing instanceof ServerResponse)
        if (!env.incoming.complete) lingeringClose(env.incoming, env.outgoing);
      if (down && 'shouldKeepAlive' in env.outgoing) env.outgoing.shouldKeepAlive = false;
      if (persistence && req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS')
        persistence.touch();
      return res;
    },
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After the first listen: a failure to listen again after an outage (the port taken meanwhile) is
  // reported and retried, never thrown at the process.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (closed) return;
    console.error(
      `[sandbox] could not listen again on ${host}:${port} (${err.code ?? err.message}); retrying`,
    );
    relisten ??= setTimeout(comeBack, 1000);
  });
  if (options.keepAliveMs !== undefined) server.keepAliveTimeout = options.keepAliveMs;
  port = (server.address() as AddressInfo).port;
  const origin = `http://${hostForUrl(host)}:${port}`;
  sandbox.config.publicUrl = options.publicUrl ?? origin;
  origins.setSelf([origin, sandbox.config.publicUrl], host);
  return {
    origin,
    baseUrl: `${origin}/v1`,
    sandbox,
    apiAnyOrigin: origins.apiAnyOrigin,
    close: async () => {
      closed = true;
      clearTimeout(relisten);
      await persistence?.flush();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      removeTemp();
    },
  };
}
