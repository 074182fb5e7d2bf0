// Each Playwright worker drives a studio and a sandbox of its own: the config starts one pair per worker
// (webServer), and a worker talks only to the pair of its slot. So a test that resets the sandbox, injects
// a fault or fills the team space never meets another worker's test. `npm test` runs two workers (one per
// core of the CI machine); `E2E_WORKERS` changes that, `E2E_STUDIO_PORT` / `E2E_SANDBOX_PORT` move the
// first pair (the next pairs take the ports after it).

/** How many workers, and so how many studio and sandbox pairs. */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));

const STUDIO_PORT = Number(process.env.E2E_STUDIO_PORT ?? 4273);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);

export const studioPort = (slot: number) => STUDIO_PORT + slot;
export const sandboxPort = (slot: number) => SANDBOX_PORT + slot;

/**
 * This process's slot: a worker's parallel index (0 to workers - 1, kept when a worker restarts after a
 * failure); 0 in the runner.
 */
export const WORKER_SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
