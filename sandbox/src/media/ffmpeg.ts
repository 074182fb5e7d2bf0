// Running ffmpeg: video encoding, audio transcoding and probing of uploads all go through here.
//
// Which binary: FFMPEG_PATH when set; else the system's ffmpeg when one is on PATH (a current release, with
// every codec its distribution builds); else the static build shipped by @ffmpeg-installer, which works
// everywhere but is from 2018. docs/sandbox-media.md says how to choose and what each one makes.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/** Enough of ffmpeg's log to parse a probe or explain a failure. */
const MAX_LOG_CHARS = 256 * 1024;

/** @internal */
export type FfmpegSource = 'FFMPEG_PATH' | 'system' | 'bundled';

export interface FfmpegChoice {
  path: string;
  source: FfmpegSource;
}

/** Whether `command -version` runs: a system ffmpeg that is there and works. */
function runs(command: string): boolean {
  const probe = spawnSync(command, ['-version'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

/**
 * The ffmpeg to run, from the environment. `FFMPEG_PATH=bundled` forces the shipped build (tests render
 * with both); any other value is a path to a binary. `systemRuns` is for tests.
 * @internal
 */
export function chooseFfmpeg(
  env: Record<string, string | undefined> = process.env,
  systemRuns: (command: string) => boolean = runs,
): FfmpegChoice {
  const configured = env.FFMPEG_PATH?.trim();
  if (configured === 'bundled') return { path: ffmpegInstaller.path, source: 'bundled' };
  if (configured) return { path: configured, source: 'FFMPEG_PATH' };
  if (systemRuns('ffmpeg')) return { path: 'ffmpeg', source: 'system' };
  return { path: ffmpegInstaller.path, source: 'bundled' };
}

/** Chosen once per value of FFMPEG_PATH (tests render with both binaries in one process). */
const chosen = new Map<string, Promise<FfmpegChoice>>();

/** The binary to run; the shipped one made executable first (npm may have skipped its postinstall). */
export function ffmpegBinary(): Promise<FfmpegChoice> {
  const key = process.env.FFMPEG_PATH ?? '';
  let choice = chosen.get(key);
  if (!choice) {
    choice = (async () => {
      const picked = chooseFfmpeg();
      if (picked.source === 'bundled') {
        try {
          await access(picked.path, constants.X_OK);
        } catch {
          await chmod(picked.path, 0o755);
        }
      }
      return picked;
    })();
    chosen.set(key, choice);
  }
  return choice;
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
 * @internal
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

/**
 * How busy the queue is (tests, the bench).
 * @internal
 */
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
  const { path } = await ffmpegBinary();
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
