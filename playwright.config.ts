import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E_WORKERS, WORKER_SLOT, sandboxPort, studioPort } from './e2e/ports';
import { CHROMIUM } from './scripts/chromium';

// e2e drives the built studio (npm start's server) against a real sandbox, on ports of their own so a
// running `npm start` does not interfere (E2E_STUDIO_PORT / E2E_SANDBOX_PORT move them, so two runs can
// share a machine), one pair per worker (e2e/ports.ts). Tasks run fast (SANDBOX_TASK_MS) so tests never
// wait long.
// The team space's documents (docs/team-space.md) go to a fresh folder per run, never into .data/: a run
// starts with no team documents. The config is loaded again by each worker, which inherits the runner's
// environment: the folder is made once, by the runner.
process.env.E2E_TEAM_SPACE_DATA ??= mkdtempSync(join(tmpdir(), 'media-studio-e2e-team-'));
const TEAM_SPACE_DATA = process.env.E2E_TEAM_SPACE_DATA;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  // Files are spread over the workers; the tests of one file run in order, in one worker.
  workers: E2E_WORKERS,
  retries: process.env.CI ? 1 : 0,
  // CI retries once; the flaky reporter ends the output with every test that passed only on a retry.
  reporter: [['list'], ['./scripts/flaky-reporter.ts']],
  timeout: 60_000,
  // Two workers share two cores with their studios, sandboxes and browsers: an answer that takes 2 s
  // alone can take 6 under that load, so assertions wait up to 10 s (a passing test waits no longer).
  expect: { timeout: 10_000 },
  use: {
    // The config is evaluated again in each worker, where WORKER_SLOT is that worker's slot.
    baseURL: `http://127.0.0.1:${studioPort(WORKER_SLOT)}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM.executablePath,
          args: [
            ...CHROMIUM.args,
            // The voice recorder's test: a fake microphone, granted without a prompt; silent playback.
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            '--mute-audio',
          ],
        },
      },
    },
  ],
  webServer: Array.from({ length: E2E_WORKERS }, (_, slot) => ({
    command: 'npx tsx server/start.ts',
    url: `http://127.0.0.1:${studioPort(slot)}/config.json`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(studioPort(slot)),
      SANDBOX_PORT: String(sandboxPort(slot)),
      SANDBOX_TASK_MS: '400',
      SANDBOX_MODERATION_MS: '1500',
      TEAM_SPACE_DATA: join(TEAM_SPACE_DATA, `worker-${slot}`),
    },
  })),
});
