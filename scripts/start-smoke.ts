import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

// `npm start`, as a new user runs it, then the few answers that prove it works: the studio's page, its
// config, the sandbox's API with a demo key, and the team space's WebSocket. The Node 24 check runs it
// (scripts/node24-check.sh); any Node can. Ports: SMOKE_STUDIO_PORT (4279), SMOKE_SANDBOX_PORT (4179).

const studioPort = Number(process.env.SMOKE_STUDIO_PORT ?? 4279);
const sandboxPort = Number(process.env.SMOKE_SANDBOX_PORT ?? 4179);
const studio = `http://127.0.0.1:${studioPort}`;
const data = mkdtempSync(join(tmpdir(), 'start-smoke-'));

const server = spawn('npm', ['start'], {
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, PORT: String(studioPort), SANDBOX_PORT: String(sandboxPort), TEAM_SPACE_DATA: data },
});
let log = '';
server.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));

function stop() {
  try {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
  rmSync(data, { recursive: true, force: true });
}

async function expectOk(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res;
}

async function waitForStudio() {
  const deadline = Date.now() + 180_000; // npm start builds first
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited (${server.exitCode})`);
    if (
      await fetch(`${studio}/config.json`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('npm start did not answer within 180 s');
}

try {
  await waitForStudio();
  const page = await (await expectOk(`${studio}/`)).text();
  if (!page.includes('<div id="root"')) throw new Error('the studio’s page has no root');
  const config = (await (await expectOk(`${studio}/config.json`)).json()) as {
    defaultBaseUrl: string;
    teamSpace?: { path: string };
  };
  const sandbox = new URL(config.defaultBaseUrl).origin;
  const keys = (await (await expectOk(`${sandbox}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  const personal = keys.find((k) => k.name === 'personal')?.key;
  if (!personal) throw new Error('no personal demo key');
  const auth = { headers: { Authorization: `Bearer ${personal}` } };
  await expectOk(`${config.defaultBaseUrl}/me`, auth);
  const models = (await (
    await expectOk(`${config.defaultBaseUrl}/models?type=image&subtype=default`, auth)
  ).json()) as {
    models?: unknown[];
  };
  if (!models.models?.length) throw new Error('GET /models listed no model');
  if (!config.teamSpace) throw new Error('config.json has no team space');
  await new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${studioPort}${config.teamSpace!.path}`);
    socket.once('open', () => {
      socket.close();
      resolve();
    });
    socket.once('error', reject);
  });
  console.log(`[start-smoke] node ${process.version}: the studio, its sandbox and the team space answer`);
  stop();
  process.exit(0);
} catch (e) {
  console.error(`[start-smoke] ${(e as Error).message}\n--- npm start's output ---\n${log.slice(-3000)}`);
  stop();
  process.exit(1);
}
