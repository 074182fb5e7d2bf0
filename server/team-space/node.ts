import { createServer } from 'node:http';
import { clusterExtensions, clusterHistory, clusterSettings } from './cluster';
import { teamSpaceEnv } from './env';
import { createTeamSpace } from './team-space-server';

// `npm run team-space:node`: one team-space node of a cluster (docs/team-space.md "On several machines"),
// without the studio: the team space on /sync of a plain HTTP server, rooms shared with the other nodes
// through Redis, documents in the shared PostgreSQL. Several of these sit behind a load balancer that
// also serves the built studio, so /sync stays on the studio's origin (and its CSP's connect-src 'self').
//
// - PORT (default 4600), HOST (default 127.0.0.1; 0.0.0.0 for a balancer on another machine);
// - TEAM_SPACE_API_URL: the API's Base URL keys are checked against (GET /me), e.g. https://api.example.com/v1;
// - TEAM_SPACE_REDIS_URL, TEAM_SPACE_DATABASE_URL: see cluster.ts;
// - TEAM_SPACE_TRUST_PROXY=1 (count connections per address by the balancer's X-Forwarded-For; without
//   it every socket comes from the balancer's address), TEAM_SPACE_RECHECK_MS and the limits: env.ts, as
//   for `npm start`.

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let settings: ReturnType<typeof clusterSettings>;
let env: ReturnType<typeof teamSpaceEnv>;
try {
  settings = clusterSettings(process.env);
  env = teamSpaceEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}
if (!settings)
  fail('A team-space node needs TEAM_SPACE_REDIS_URL and TEAM_SPACE_DATABASE_URL (docs/team-space.md).');
const apiBaseUrl = process.env.TEAM_SPACE_API_URL?.trim();
if (!apiBaseUrl || !/^https?:\/\//.test(apiBaseUrl)) {
  fail('TEAM_SPACE_API_URL: the API Base URL keys are checked against, e.g. https://api.example.com/v1.');
}
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT || 4600);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT: a port number, not "${process.env.PORT}".`);

const extensions = clusterExtensions(settings);
const teamSpace = createTeamSpace({
  apiBaseUrl,
  extensions,
  history: clusterHistory(extensions),
  recheckMs: env.recheckMs,
  limits: env.limits,
  trustProxy: env.trustProxy,
  allowedOrigins: env.allowedOrigins,
  archive: env.archive,
});

const server = createServer((req, res) => {
  // For a balancer's health check: the process is up and listening (no more: Redis and PostgreSQL are
  // shared by every node, so their trouble is not one node's to report).
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    return;
  }
  // The team's history (its HTTP routes under /sync), read from PostgreSQL.
  void teamSpace.handleRequest(req, res).then((answered) => {
    if (!answered) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
  });
});
server.on('upgrade', (req, socket, head) => {
  if (!teamSpace.handleUpgrade(req, socket, head)) socket.destroy();
});
server.listen(port, host, () => {
  const { redis } = settings;
  console.log(
    `Team space node listening on ws://${host.includes(':') ? `[${host}]` : host}:${port}${teamSpace.path}  (keys checked against ${apiBaseUrl}; rooms shared through Redis at ${redis.host}:${redis.port}; documents in PostgreSQL)`,
  );
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close();
    // Every room stored before the process goes; its clients reconnect to another node.
    void teamSpace.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Team space node: closing failed', error);
        process.exit(1);
      },
    );
  });
}
