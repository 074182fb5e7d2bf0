import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Driver } from './driver';
import { launchFirefox } from './firefox';
import { keyboardJourney, mainJourneys } from './journeys';
import {
  PLAY_IN_PAGE,
  playArgs,
  serveMediaSamples,
  writeMediaSamples,
  type PlayResult,
} from './media-samples';
import { BrowserPage } from './page';
import { SandboxClient } from './sandbox-client';
import { launchWebKit } from './webkit';

// `npm run test:browsers`: the main journeys in Firefox ESR (Puppeteer over WebDriver BiDi) and
// WebKitGTK (Selenium and WebKitWebDriver), against the built studio and a sandbox of their own (as
// `npm start` serves them), one browser after the other. Prints each step; exits 1 when one fails.
//   --no-build             use the dist/ already built (npm test builds just before)
//   --browser firefox|webkit   only that one (repeatable)
// Ports: BROWSERS_STUDIO_PORT (4276) and BROWSERS_SANDBOX_PORT (4113), apart from npm start, e2e and bench.
// XB_TRACE=1 prints how long each lookup and action took.

const BROWSERS = {
  firefox: (_log: string) => launchFirefox(),
  webkit: (log: string) => launchWebKit(log),
} satisfies Record<string, (log: string) => Promise<Driver>>;
type BrowserName = keyof typeof BROWSERS;

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    browser: { type: 'string', multiple: true },
  },
});
const chosen = (values.browser ?? Object.keys(BROWSERS)) as BrowserName[];
for (const b of chosen) if (!(b in BROWSERS)) throw new Error(`Unknown browser ${b}: firefox or webkit`);

const STUDIO_PORT = Number(process.env.BROWSERS_STUDIO_PORT ?? 4276);
const SANDBOX_PORT = Number(process.env.BROWSERS_SANDBOX_PORT ?? 4113);
const STUDIO = `http://127.0.0.1:${STUDIO_PORT}`;
const OUT = 'test-results/browsers';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

if (!values['no-build']) {
  console.log('Building the studio (vite build)…');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** The studio's server and its sandbox (server/start.ts), in a process group of their own. */
function startServer(): ChildProcess {
  const log = createWriteStream(join(OUT, 'server.log'));
  const server = spawn('npx', ['tsx', 'server/start.ts'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(STUDIO_PORT),
      SANDBOX_PORT: String(SANDBOX_PORT),
      // Tasks run fast, as in the Playwright tests.
      SANDBOX_TASK_MS: '400',
      SANDBOX_MODERATION_MS: '1500',
      // The team space's documents in a folder of this run's, not the checkout's .data/.
      TEAM_SPACE_DATA: join(OUT, 'team-space'),
    },
  });
  server.stdout!.pipe(log);
  server.stderr!.pipe(log);
  return server;
}

function stopServer(server: ChildProcess) {
  if (server.exitCode !== null || server.pid === undefined) return;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

async function waitForServer(server: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the studio's server exited (${server.exitCode})`);
    const ok = await fetch(`${STUDIO}/config.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the studio did not answer at ${STUDIO} within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The sandbox's video and audio from both ffmpeg builds, served apart from the studio. */
interface Media {
  origin: string;
  samples: Awaited<ReturnType<typeof writeMediaSamples>>;
}

async function runBrowser(name: BrowserName, sandbox: SandboxClient, media: Media): Promise<boolean> {
  const started = Date.now();
  let driver: Driver;
  try {
    driver = await BROWSERS[name](join(OUT, `${name}-driver.log`));
  } catch (e) {
    console.log(`✗ ${name}: the browser did not start: ${(e as Error).message}`);
    return false;
  }
  console.log(`${driver.name} (started in ${seconds(Date.now() - started)})`);
  let ok = true;
  let current = '';
  try {
    await sandbox.reset();
    const page = new BrowserPage(driver, STUDIO);
    const tmpDir = await mkdtemp(join(tmpdir(), `studio-${name}-`));
    const context = {
      page,
      sandbox,
      tmpDir,
      step: async (title: string, run: () => Promise<void>) => {
        current = title;
        const t0 = Date.now();
        await run();
        const errors = await driver.errors();
        if (errors.length > 0) throw new Error(`errors in the page:\n${errors.join('\n')}`);
        console.log(`  ✓ ${title} (${seconds(Date.now() - t0)})`);
      },
    };
    await mainJourneys(context);
    await keyboardJourney(context);
    await context.step('video and audio made by the system ffmpeg and the bundled one play', async () => {
      await driver.goto(`${media.origin}/`);
      const results = await driver.evaluate<PlayResult[]>(
        PLAY_IN_PAGE,
        playArgs(media.origin, media.samples),
      );
      const failed = results.filter((r) => !r.ok);
      if (failed.length > 0 || results.length !== media.samples.length)
        throw new Error(
          failed.map((r) => `${r.name}: ${r.detail}`).join('\n') || 'not every sample answered',
        );
    });
  } catch (e) {
    ok = false;
    const shot = join(OUT, `${name}-failure.png`);
    console.log(`  ✗ ${current}: ${(e as Error).stack ?? e}`);
    await driver.screenshot(shot).then(
      () => console.log(`    screenshot: ${shot}`),
      (err: Error) => console.log(`    (no screenshot: ${err.message})`),
    );
  } finally {
    await driver.close().catch((e: Error) => console.log(`  (closing ${name}: ${e.message})`));
  }
  return ok;
}

const server = startServer();
// A browser that hangs (a launch that never answers) must not hold CI: the whole run has 15 minutes.
setTimeout(() => {
  console.log('✗ the run took over 15 minutes: stopped');
  stopServer(server);
  process.exit(1);
}, 15 * 60_000).unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopServer(server);
    process.exit(1);
  });

let failed: string[] = [];
try {
  await waitForServer(server);
  const config = (await (await fetch(`${STUDIO}/config.json`)).json()) as { defaultBaseUrl: string };
  const sandbox = new SandboxClient(new URL(config.defaultBaseUrl).origin);
  const samples = await writeMediaSamples(join(OUT, 'media'));
  const { origin, server: mediaServer } = await serveMediaSamples(join(OUT, 'media'));
  try {
    for (const name of chosen) if (!(await runBrowser(name, sandbox, { origin, samples }))) failed.push(name);
  } finally {
    mediaServer.close();
  }
} catch (e) {
  console.log(`✗ ${(e as Error).message}`);
  console.log(readFileSync(join(OUT, 'server.log'), 'utf8').slice(-2000));
  failed = chosen;
} finally {
  stopServer(server);
}

if (failed.length > 0) {
  console.log(`\nFailed in ${failed.join(', ')} (logs and screenshots in ${OUT}/)`);
  process.exit(1);
}
console.log(`\nThe main journeys pass in ${chosen.join(' and ')}.`);
process.exit(0);
