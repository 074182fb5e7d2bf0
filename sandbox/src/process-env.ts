import { spawn } from 'node:child_process';

// What a process that runs the sandbox is started with. glibc's malloc gives a thread that finds the
// arenas busy an arena of its own, up to eight per core, and libvips allocates and frees its pixels on
// libuv's worker threads (sharp runs there), so freed memory is left scattered over many arenas that
// are never given back: under a steady load the sandbox's resident memory grew by about 100 MB an hour
// while its JS heap and Buffers stayed flat. Two arenas keep it flat (docs/benchmarks.md: the sandbox's
// resident memory, measured by bench/rss-soak.ts). glibc reads MALLOC_ARENA_MAX once, as the process
// starts, so it cannot be set from inside: launchers pass it to the processes they start, and the
// sandbox's own entry points (cli.ts, scripts/start.ts) start themselves again with it when it is
// missing. Elsewhere (macOS, musl) the variable means nothing and nothing is done.

/** The malloc arenas a sandbox process may use. */
export const SANDBOX_MALLOC_ARENA_MAX = '2';

/** Set in a process that relaunchWithSandboxEnv started, so that it is not started a third time. */
const RELAUNCHED = 'MEDIA_STUDIO_RELAUNCHED';

/** Environment to add for a sandbox process: none when the caller's environment already chose. */
export function sandboxProcessEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: SANDBOX_MALLOC_ARENA_MAX } : {};
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
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
  return new Promise<void>(() => undefined);
}
