// Running the static ffmpeg shipped by @ffmpeg-installer (there is no ffprobe): video encoding,
// audio transcoding and probing of uploads all go through here.
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/** Enough of ffmpeg's log to parse a probe or explain a failure. */
const MAX_LOG_CHARS = 256 * 1024;

let executable: Promise<string> | undefined;

/** The binary's path, made executable on first use: npm may have skipped the package's postinstall. */
function ffmpegPath(): Promise<string> {
  executable ??= (async () => {
    const path = ffmpegInstaller.path;
    try {
      await access(path, constants.X_OK);
    } catch {
      await chmod(path, 0o755);
    }
    return path;
  })();
  return executable;
}

export interface FfmpegResult {
  /** Exit code; null when killed. */
  code: number | null;
  /** What ffmpeg logged (its first MAX_LOG_CHARS characters). */
  log: string;
}

/**
 * ffmpeg processes at once, in the whole process: about as many as the cores. Each render is CPU-bound,
 * so more at once finish no sooner and starve the API (20 video tasks once started 20 ffmpeg processes);
 * the others wait their turn in order. Probes of uploads go through the same queue.
 */
export const FFMPEG_CONCURRENCY = Math.max(1, availableParallelism());

let running = 0;
const waiting: Array<() => void> = [];

/** Takes a slot, waiting in line for one. */
function acquire(): Promise<void> {
  if (running < FFMPEG_CONCURRENCY) {
    running += 1;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

/** Hands the slot to the next in line, or frees it. */
function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

/** How busy the queue is (tests, the bench). */
export const ffmpegQueue = () => ({ running, waiting: waiting.length });

/** Runs other heavy media work (a full image decode) in the same queue, a slot at a time. */
export async function inMediaQueue<T>(work: () => Promise<T>): Promise<T> {
  await acquire();
  try {
    return await work();
  } finally {
    release();
  }
}

/** Runs ffmpeg to completion (or kills it after timeoutMs), once a slot of the queue is free. Never rejects on a non-zero exit. */
export async function runFfmpeg(args: readonly string[], timeoutMs: number): Promise<FfmpegResult> {
  const path = await ffmpegPath();
  await acquire();
  try {
    return await spawnFfmpeg(path, args, timeoutMs);
  } finally {
    release();
  }
}

function spawnFfmpeg(path: string, args: readonly string[], timeoutMs: number): Promise<FfmpegResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (log.length < MAX_LOG_CHARS) log += chunk.slice(0, MAX_LOG_CHARS - log.length);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}

/** Runs ffmpeg for an output it must produce; rejects with the end of its log when it fails. */
export async function runFfmpegOrThrow(args: readonly string[], timeoutMs: number): Promise<void> {
  const { code, log } = await runFfmpeg(args, timeoutMs);
  if (code !== 0) {
    const tail = log.trim().split('\n').slice(-5).join('\n');
    throw new Error(`ffmpeg failed (${code === null ? 'killed' : `exit ${code}`}): ${tail}`);
  }
}

const TEMP_PREFIX = 'sandbox-media-';
/** No render takes this long: an older scratch folder was left by a process killed mid-render. */
const STALE_MS = 10 * 60_000;

let reaped = false;

/** Removes scratch folders that killed processes (a test run stopped, a server shut down) left behind. Never rejects. */
async function reapStaleTempDirs(): Promise<void> {
  const root = tmpdir();
  const names = await readdir(root).catch(() => []);
  for (const name of names.filter((entry) => entry.startsWith(TEMP_PREFIX))) {
    const path = join(root, name);
    try {
      if (Date.now() - (await stat(path)).mtimeMs > STALE_MS)
        await rm(path, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

/** A private scratch folder under the OS temp dir, removed whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  if (!reaped) {
    reaped = true;
    void reapStaleTempDirs();
  }
  const dir = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
