import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Y from 'yjs';
import { clusterExtensions, clusterHistory, clusterSettings } from '../server/team-space/cluster';
import { teamSpaceEnv } from '../server/team-space/env';
import { createTeamSpace } from '../server/team-space/team-space-server';
import { createStudioServer, studioSettings } from '../server/studio-server';
import { canonical, contentOf } from './team-doc-json';

// The team-space server as the team bench runs it (bench/team-bench.ts): createTeamSpace on /sync of a
// plain HTTP server, in a process of its own so its CPU time and resident memory are the server's and not
// the bench's (50 members' providers run in the bench process). Settings from the environment as for
// `npm start` (server/team-space/env.ts: TEAM_SPACE_DATA, the raised connection limits) and, with
// TEAM_SPACE_REDIS_URL + TEAM_SPACE_DATABASE_URL, a cluster node (server/team-space/cluster.ts), as
// server/team-space/node.ts. TEAM_SPACE_API_URL: the sandbox the keys are checked against. PORT 0 (the
// default) takes a spare port, printed as "listening <port>".
//
// BENCH_REFEREE=off starts it without the referee's checks (createTeamSpace's `referee.enabled: false`:
// the baseline the checks' cost is measured against, never a deployment); otherwise each check's time is
// kept (`referee.onReview`). BENCH_STUDIO_DIST=<dist> also serves that built studio on this port (as
// `npm start` does, server/studio-server.ts, its /config.json naming this team space and the sandbox at
// TEAM_SPACE_API_URL), so browsers can join (PORT must then be given: the studio's CSP names its origin).
//
// Bench-only endpoints, never part of a deployment (this file is not served by the studio):
// - GET /stats: this process's CPU time and memory (process.cpuUsage, process.memoryUsage), the highest
//   RSS sampled (every 20 ms) since the last POST /stats/reset, and the sockets closed as slow readers;
// - GET /reviews: how long each of the referee's checks took (ms) since the last call, and forgets them;
// - POST /apply?room=...: applies the Yjs update in the body to a room as the server itself writes (a
//   direct connection, not a member's message: not refereed), to seed it;
// - GET /room?name=...: a loaded room's state vector, content and encoded state's hash, to compare with
//   the members' copies;
// - POST /copies?of=...&n=...: loads n more rooms holding that room's document (direct connections, so
//   they stay loaded) and answers the memory before and after, after a GC (needs --expose-gc): memory
//   per room.

const apiBaseUrl = process.env.TEAM_SPACE_API_URL ?? '';
const env = teamSpaceEnv(process.env);
const cluster = clusterSettings(process.env);
let reviews: number[] = [];
let slowReaders = 0;
const extensions = cluster && clusterExtensions(cluster);
const teamSpace = createTeamSpace({
  apiBaseUrl,
  // A cluster node's history store is PostgreSQL's, as `npm run team-space:node`'s.
  ...(extensions ? { extensions, history: clusterHistory(extensions) } : { dataDir: env.dataDir }),
  recheckMs: env.recheckMs,
  limits: env.limits,
  archive: env.archive,
  referee: process.env.BENCH_REFEREE === 'off' ? { enabled: false } : { onReview: (ms) => reviews.push(ms) },
  // Only refusals: 100 members' connect lines would be the bench's noise, and a refusal is a bench bug.
  // Slow readers closed are counted (the scenario expects them), not printed.
  log: (line) => {
    if (line.includes('reason=slow-reader')) slowReaders++;
    else if (line.startsWith('refused')) console.error(`[team-node] ${line}`);
  },
});

// The highest RSS since the last reset, sampled: VmHWM is the whole life's peak, not one phase's.
let peakRss = process.memoryUsage.rss();
setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20).unref();

const port = Number(process.env.PORT ?? 0);
const studioDist = process.env.BENCH_STUDIO_DIST;
const studio = studioDist
  ? createStudioServer(
      studioSettings(
        { ...process.env, TEAM_SPACE_API_URL: apiBaseUrl },
        {
          origin: `http://127.0.0.1:${port}`,
          sandbox: { baseUrl: apiBaseUrl, origin: new URL(apiBaseUrl).origin },
        },
      ),
      studioDist,
      { teamSpace },
    )
  : undefined;

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
      peakRss = Math.max(peakRss, m.rss);
      return json(res, {
        cpuUserUs: cpu.user,
        cpuSystemUs: cpu.system,
        rss: m.rss,
        peakRss,
        heapUsed: m.heapUsed,
        documents: teamSpace.hocuspocus.getDocumentsCount(),
        connections: teamSpace.hocuspocus.getConnectionsCount(),
        slowReaders,
      });
    }
    if (url.pathname === '/stats/reset' && req.method === 'POST') {
      peakRss = process.memoryUsage.rss();
      slowReaders = 0;
      return json(res, { peakRss });
    }
    if (url.pathname === '/reviews') {
      const taken = reviews;
      reviews = [];
      return json(res, taken);
    }
    if (url.pathname === '/apply' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const direct = await teamSpace.hocuspocus.openDirectConnection(url.searchParams.get('room') ?? '');
      await direct.transact((doc) => Y.applyUpdate(doc, new Uint8Array(Buffer.concat(chunks))));
      await direct.disconnect();
      return json(res, { ok: true });
    }
    if (studio) return void studio.emit('request', req, res);
    if (url.pathname === '/room') {
      const doc = teamSpace.hocuspocus.documents.get(url.searchParams.get('name') ?? '');
      if (!doc) return json(res, null);
      const update = Y.encodeStateAsUpdate(doc);
      return json(res, {
        stateVector: Buffer.from(Y.encodeStateVector(doc)).toString('base64'),
        content: JSON.stringify(canonical(contentOf(doc))),
        bytes: update.byteLength,
        sha256: createHash('sha256').update(update).digest('hex'),
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
server.listen(port, '127.0.0.1', () => {
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
