import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { demoKeyValues, type DemoKeyValues } from './core/keys';
import type { Sandbox, SandboxSnapshot } from './core/sandbox';

// With a data folder (--data-dir / SANDBOX_DATA_DIR) the sandbox keeps its state across restarts, in a
// folder of its own making inside it (SANDBOX_FOLDER), never beside what else lies there: state.json,
// keys.json (the demo keys), one file per upload in uploads/ (the media store writes it there as it
// arrives) and renders/, outputs kept as a cache (re-made from their task). Within its folder it deletes
// only files it names itself (core/media-store.ts), so a file or folder put there by hand stays, and
// does not stop it from starting. Nothing is written anywhere else.

/**
 * The sandbox's own folder inside a data folder.
 * @internal
 */
export const SANDBOX_FOLDER = 'media-studio-sandbox';

export const sandboxFolderIn = (dataDir: string): string => join(resolve(dataDir), SANDBOX_FOLDER);

export interface Persistence {
  /** Save soon (debounced); call after anything that may have changed state. */
  touch(): void;
  flush(): Promise<void>;
}

/**
 * The demo keys of this data folder (keys.json): made at random the first time and kept, so they are
 * stable across restarts and differ from every other install's. Readable by its owner only.
 */
export function loadDemoKeys(ownDir: string): DemoKeyValues {
  const dir = resolve(ownDir);
  const path = join(dir, 'keys.json');
  let saved: unknown = {};
  try {
    saved = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // None yet (or unreadable): new keys, saved below.
  }
  const values = demoKeyValues(saved);
  if (JSON.stringify(values) !== JSON.stringify(saved)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  }
  return values;
}

/** Loads the saved state, if any, into a sandbox whose media folder is `dir` (sandboxFolderIn). */
export function attachPersistence(sb: Sandbox, ownDir: string): Persistence {
  const dir = resolve(ownDir);
  const statePath = join(dir, 'state.json');
  mkdirSync(dir, { recursive: true });

  if (existsSync(statePath)) {
    try {
      const snap = JSON.parse(readFileSync(statePath, 'utf8')) as SandboxSnapshot;
      if (snap.version === 1) sb.restore(snap);
    } catch (err) {
      console.error('[sandbox] the saved state could not be read; starting afresh', err);
      sb.reset();
    }
  }
  sb.removeOrphanUploads();

  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const tmp = `${statePath}.tmp`;
    writeFileSync(tmp, JSON.stringify(sb.snapshot()));
    renameSync(tmp, statePath);
  };
  return {
    touch: () => {
      timer ??= setTimeout(
        () => void flush().catch((err: unknown) => console.error('[sandbox] save failed', err)),
        250,
      );
    },
    flush,
  };
}
