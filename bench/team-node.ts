import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Y from 'yjs';
import { clusterExtensions, clusterSettings } from '../scripts/team-space/cluster';
import { teamSpaceEnv } from '../scripts/team-space/env';
import { createTeamSpace } from '../scripts/team-space/team-space-server';
import { canonical, contentOf } from './team-doc-json';

// The team-space server as the team bench runs it (bench/team-bench.ts): createTeamSpace on /sync of a
// plain HTTP server, in a process of its own so its CPU time and resident memory are the server's and not
// the bench's (50 members' providers run in the bench process). Settings from the environment as for
// `npm start` (scripts/team-space/env.ts: TEAM_SPACE_DATA, the raised connection limits) and, with
// TEAM_SPACE_REDIS_URL + TEAM_SPACE_DATABASE_URL, a cluster node (scripts/team-space/cluster.ts), as
// scripts/team-space/node.ts. TEAM_SPACE_API_URL: the sandbox the keys are checked against. PORT 0 (the
// default) takes a spare port, printed as "listening <port>".
//
// Bench-only endpoints, never part of a deployment (this file is not served by the studio):
// - GET /stats: this process's CPU time and memory (process.cpuUsage, process.memoryUsage);
// - GET /room?name=...: a loaded room's state vector and content, to compare with the members' copies;
// - POST /copies?of=...&n=...: loads n more rooms holding that room's document (direct connections, so
//   they stay loaded) and answers the memory before and after, after a GC (needs --expose-gc): memory
//   per room.

const apiBaseUrl = process.env.TEAM_SPACE_API_URL ?? '';
const env = teamSpaceEnv(process.env);
const cluster = clusterSettings(process.env);
const teamSpace = createTeamSpace({
  apiBaseUrl,
  ...(cluster ? { extensions: clusterExtensions(cluster) } : { dataDir: env.dataDir }),
  recheckMs: env.recheckMs,
  limits: env.limits,
  // Only refusals: 50 members' connect lines would be the bench's noise, and a refusal is a bench bug.
  log: (line) => {
    if (line.startsWith('refused')) console.error(`[team-node] ${line}`);
  },
});

const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
};

const json = (res: ServerResponse, body: unknown) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const copies: Array<{ disconnect(): Promise<void> }> = [];

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://bench.invalid');
  void (async () => {
    if (url.pathname === '/stats') {
      const cpu = process.cpuUsage();
      const m = process.memoryUsage();
      return json(res, {
        cpuUserUs: cpu.user,
        cpuSystemUs: cpu.system,
        rss: m.rss,
        heapUsed: m.heapUsed,
        documents: teamSpace.hocuspocus.getDocumentsCount(),
        connections: teamSpace.hocuspocus.getConnectionsCount(),
      });
    }
    if (url.pathname === '/room') {
      const doc = teamSpace.hocuspocus.documents.get(url.searchParams.get('name') ?? '');
      if (!doc) return json(res, null);
      return json(res, {
        stateVector: Buffer.from(Y.encodeStateVector(doc)).toString('base64'),
        content: JSON.stringify(canonical(contentOf(doc))),
        bytes: Y.encodeStateAsUpdate(doc).byteLength,
      });
    }
    if (url.pathname === '/copies' && req.method === 'POST') {
      const of = teamSpace.hocuspocus.documents.get(url.searchParams.get('of') ?? '');
      const n = Number(url.searchParams.get('n') ?? 10);
      if (!of) return json(res, null);
      const update = Y.encodeStateAsUpdate(of);
      const before = memory();
      for (let i = 0; i < n; i++) {
        const direct = await teamSpace.hocuspocus.openDirectConnection(`bench-copy:${copies.length}`);
        await direct.transact((doc) => Y.applyUpdate(doc, update));
        copies.push(direct);
      }
      // Let the stores the copies scheduled run, so what stays is what a loaded room holds.
      await new Promise((r) => setTimeout(r, 3000));
      return json(res, { n, bytes: update.byteLength, before, after: memory(), gc: gc !== undefined });
    }
    res.writeHead(404).end();
  })().catch((e: Error) => res.writeHead(500).end(e.message));
});
server.on('upgrade', (req, socket, head) => {
  if (!teamSpace.handleUpgrade(req, socket, head)) socket.destroy();
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void Promise.all(copies.map((c) => c.disconnect()))
      .then(() => teamSpace.close())
      .finally(() => process.exit(0));
  });
}
