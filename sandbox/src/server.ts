import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sandbox } from './core/sandbox';
import { createApp } from './http/app';
import { attachPersistence } from './persistence';

// Starts a listening sandbox. Used by the CLI, `npm start`, the HTTP tests (port 0) and the benchmark.

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Origin for media URLs; defaults to http://<host>:<port>. */
  publicUrl?: string;
  taskMs?: number;
  moderationMs?: number;
  rateLimits?: boolean;
  /** Keep state in this folder across restarts; without it nothing is written to disk. */
  dataDir?: string;
}

export interface RunningSandbox {
  origin: string;
  baseUrl: string;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const sandbox = new Sandbox({
    publicUrl: options.publicUrl ?? '',
    taskMs: options.taskMs ?? 4000,
    moderationMs: options.moderationMs ?? 6000,
    rateLimits: options.rateLimits,
  });
  let port = options.port ?? 4010;
  const app = createApp(sandbox, {
    outage: (durationMs) => {
      server.close();
      server.closeAllConnections();
      setTimeout(() => server.listen(port, host), durationMs);
    },
  });
  const persistence = options.dataDir ? attachPersistence(sandbox, options.dataDir) : undefined;
  const server = createAdaptorServer({
    hostname: host,
    fetch: async (req, env) => {
      const res = await app.fetch(req, env);
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
  port = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;
  sandbox.config.publicUrl = options.publicUrl ?? origin;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    sandbox,
    close: async () => {
      await persistence?.flush();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
