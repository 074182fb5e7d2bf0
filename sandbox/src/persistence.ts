import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Sandbox, SandboxSnapshot } from './core/sandbox';

// With a data folder (--data-dir / SANDBOX_DATA_DIR) the sandbox keeps its state across restarts:
// state.json plus one file per upload. Outputs are not stored: they are re-made from their task.
// Nothing is written anywhere else.

export interface Persistence {
  /** Save soon (debounced); call after anything that may have changed state. */
  touch(): void;
  flush(): Promise<void>;
}

export function attachPersistence(sb: Sandbox, dataDir: string): Persistence {
  const dir = resolve(dataDir);
  const uploadsDir = join(dir, 'uploads');
  const statePath = join(dir, 'state.json');
  mkdirSync(uploadsDir, { recursive: true });

  if (existsSync(statePath)) {
    const snap = JSON.parse(readFileSync(statePath, 'utf8')) as SandboxSnapshot;
    if (snap.version === 1) {
      sb.restore(snap, (u) => {
        const file = join(uploadsDir, u.id);
        return existsSync(file) ? readFileSync(file) : null;
      });
    }
  }

  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    for (const upload of sb.uploadRecords()) {
      const file = join(uploadsDir, upload.id);
      if (existsSync(file)) continue;
      const bytes = await sb.uploadBytes(upload);
      if (bytes) writeFileSync(file, bytes);
    }
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
