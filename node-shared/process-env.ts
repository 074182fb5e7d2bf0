import { spawn } from 'node:child_process';
import { constants } from 'node:os';

// What a process that runs the sandbox is started with: glibc malloc settings. libvips (sharp) allocates
// and frees its pixels on libuv's worker threads, and glibc gives a thread that finds the arenas busy an
// arena of its own (up to eight per core), and moves its threshold for mmap up after each large buffer
// is freed, so later buffers of that size come from the arenas too; freed pixels are then left
// scattered over many arenas and never given back. Under a steady load (bench/rss-soak.ts) the
// sandbox's resident memory grew by 150 to 280 MB an hour while its JS heap and Buffers stayed flat;
// two arenas and a fixed mmap threshold of 128 KiB (glibc's starting value: every larger buffer is
// mapped on its own and unmapped when freed) keep it flat (docs/benchmarks.md: the sandbox's resident
// memory). glibc reads these once, as the process starts, so they cannot be set from inside: launchers
// pass them to the processes they start, and the entry points that run the sandbox (sandbox/src/cli.ts,
// server/start.ts) start themselves again with them when they are missing. Elsewhere (macOS, musl)
// nothing is done.

/** The malloc settings of a sandbox process (glibc's environment variables). */
const SANDBOX_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** Set in a process that relaunchWithSandboxEnv started, so that it is not started a third time. */
const RELAUNCHED = 'MEDIA_STUDIO_RELAUNCHED';

/** Environment to add for a sandbox process: each setting the caller's environment has not chosen. */
export function sandboxProcessEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(SANDBOX_MALLOC_ENV).filter(([name]) => env[name] === undefined));
}

/** Whether this process runs on glibc (the Node report names its version only there). */
function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime !== undefined;
}

/**
 * For an entry point, before it loads anything else (dynamic imports after it): when this process
 * lacks the sandbox's environment, runs the same command again as a child that has it, passes signals
 * on, and exits as the child exits, so the returned promise never settles here. Otherwise (already
 * set, or not glibc) it resolves at once and the caller goes on.
 */
export function relaunchWithSandboxEnv(): Promise<void> {
  const missing = sandboxProcessEnv();
  if (Object.keys(missing).length === 0 || process.env[RELAUNCHED] || !onGlibc()) {
    // Started by a relaunch: if the parent goes away (even killed), this process ends as if stopped.
    if (process.env[RELAUNCHED] && process.connected)
      process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    return Promise.resolve();
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, ...missing, [RELAUNCHED]: '1' },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  // A child ended by a signal exits as a shell reports it: 128 + the signal's number.
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  return new Promise<void>(() => undefined);
}
