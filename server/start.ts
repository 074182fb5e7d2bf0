import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkHosts, hostForListen, hostForUrl } from '../node-shared/hosts';
import { relaunchWithSandboxEnv } from '../node-shared/process-env';

// `npm start`: the built studio on PORT (4173) and a sandbox on SANDBOX_PORT (4010), with the studio's
// Base URL defaulting to that sandbox through /config.json, and the team space (docs/team-space.md) on /sync
// of the studio's origin, its documents in TEAM_SPACE_DATA (default .data/team-space). TEAM_SPACE=off
// leaves it out; its other settings are in server/team-space/env.ts. With TEAM_SPACE_REDIS_URL and
// TEAM_SPACE_DATABASE_URL the team space is one node of a cluster instead (server/team-space/cluster.ts:
// rooms shared through Redis, documents and history in PostgreSQL), beside `npm run team-space:node`s.

// The sandbox runs in this process: started again with MALLOC_ARENA_MAX when it is missing
// (node-shared/process-env.ts), everything else loaded only in the process that runs.
await relaunchWithSandboxEnv();
const { startSandbox } = await import('../sandbox/src/server');
const { createStudioServer, studioSettings } = await import('./studio-server');
const { teamSpaceEnv } = await import('./team-space/env');
const { createTeamSpace } = await import('./team-space/team-space-server');

// Loaded only for a cluster (its Redis and PostgreSQL clients).
const cluster =
  process.env.TEAM_SPACE_REDIS_URL || process.env.TEAM_SPACE_DATABASE_URL
    ? await import('./team-space/cluster')
    : undefined;

const num = (v: string | undefined, fallback: number) => (v ? Number(v) : fallback);
// An IPv6 HOST may come with or without brackets: listened on without them, written into URLs with them.
const host = hostForListen(process.env.HOST ?? '127.0.0.1');
const port = num(process.env.PORT, 4173);
const origin = `http://${hostForUrl(host)}:${port}`;

// What stops the start at once: a HOST other than loopback (it puts the sandbox's control API on the
// network; refused unless asked), and half a cluster's settings.
try {
  const warning = checkHosts(
    [host, process.env.SANDBOX_HOST ?? host],
    process.argv.includes('--allow-remote') || process.env.STUDIO_ALLOW_REMOTE === '1',
  );
  if (warning) console.warn(warning);
  // One of the two without the other is refused here, before anything starts.
  cluster?.clusterSettings(process.env);
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}

if (!existsSync('dist/index.html')) {
  console.error('No build found: run `npm run build` first (npm start does it for you).');
  process.exit(1);
}

const sandbox = await startSandbox({
  port: num(process.env.SANDBOX_PORT, 4010),
  host: hostForListen(process.env.SANDBOX_HOST ?? host),
  publicUrl: process.env.SANDBOX_PUBLIC_URL,
  taskMs: process.env.SANDBOX_TASK_MS ? Number(process.env.SANDBOX_TASK_MS) : undefined,
  moderationMs: process.env.SANDBOX_MODERATION_MS ? Number(process.env.SANDBOX_MODERATION_MS) : undefined,
  dataDir: process.env.SANDBOX_DATA_DIR,
  // The studio's own origin may use the sandbox's control API (the connect form lists its demo keys).
  allowedOrigins: [origin],
  apiAnyOrigin: process.env.SANDBOX_API_ANY_ORIGIN === '1',
});

// The real service may refuse cross-origin calls from the studio's origin: STUDIO_PROXY_TARGET (its
// {api_base_url}, e.g. https://api.example.com) makes this server forward the API's endpoints under
// /proxy/ there (server/proxy.ts says what it guarantees), so the studio calls its own origin:
// Base URL http://127.0.0.1:4173/proxy/v1. The key passes through in the Authorization header and is
// never logged. STUDIO_API_ORIGINS lists more API origins the studio may call (server/studio-server.ts).
const settings = studioSettings(process.env, { origin, sandbox });
let teamSpace: ReturnType<typeof createTeamSpace> | undefined;
try {
  if (settings.teamSpace) {
    const env = teamSpaceEnv(process.env);
    const extensions = cluster && cluster.clusterExtensions(cluster.clusterSettings(process.env)!);
    // Pages of the studio's origin may open /sync (the server's own host passes too, whatever name the
    // browser used); TEAM_SPACE_ALLOWED_ORIGINS adds origins that serve the studio elsewhere.
    teamSpace = createTeamSpace({
      apiBaseUrl: settings.teamSpace.apiBaseUrl,
      ...env,
      allowedOrigins: [origin, ...(env.allowedOrigins ?? [])],
      ...(extensions ? { extensions, history: cluster!.clusterHistory(extensions) } : {}),
    });
  }
} catch (e) {
  console.error((e as Error).message);
  await sandbox.close();
  process.exit(1);
}
const server = createStudioServer(settings, resolve('dist'), { teamSpace });
server.listen(port, host, () => {
  console.log(`Media Studio at ${origin}  (sandbox API at ${sandbox.baseUrl})`);
  if (settings.proxy) console.log(`Forwarding the API's endpoints under /proxy/ to ${settings.proxy.target}`);
  if (teamSpace) {
    console.log(
      `Team space at ${origin.replace(/^http/, 'ws')}${teamSpace.path}  (keys checked against ${teamSpace.apiBaseUrl}; documents in ${teamSpace.dataFile ?? 'PostgreSQL, rooms shared through Redis'})`,
    );
  } else console.log('Team space off (TEAM_SPACE=off)');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    // The team space first: its documents are stored before anything goes.
    void (teamSpace?.close() ?? Promise.resolve()).then(() => sandbox.close()).then(() => process.exit(0));
  });
}
