import type { Document, Extension, Hocuspocus } from '@hocuspocus/server';
import { TEAM_DOC_ROOTS } from '../../contract/team-doc';
import { LIVE_WINDOW } from '../../contract/team-history';
import { archiveRoom, type ArchiveWindow } from './archive';
import type { HistoryStore } from './history-store';

// When the move (archive.ts) runs: as a room loads (after its migration: an existing room of one
// document is split on its first load by a server of this version), every `everyMs` for every room
// held, soon after a room passes its window's count by a quarter, and at once when an edit would take
// the document past its limit (team-space-server.ts asks before refusing it). One pass at a time per
// room; a pass that fails (the store is down) is logged and tried again on the next occasion.

export interface ArchiverOptions {
  /** The store, or undefined while it is not open yet (the embedded SQLite opens with the server). */
  store: () => HistoryStore | undefined;
  log: (line: string) => void;
  window?: ArchiveWindow;
  everyMs?: number;
  now?: () => number;
}

export interface Archiver {
  extension: Extension;
  /** One pass over the room now (or the pass running): how many records left the document. */
  archiveNow(document: Document): Promise<number>;
}

export const DEFAULT_ARCHIVE_EVERY_MS = 60_000;
/** A room this far past its window's count is moved soon, without waiting for the timer. */
const OVERFULL = 1.25;
const SOON_MS = 2_000;

export function archiver(options: ArchiverOptions): Archiver {
  const window = options.window ?? LIVE_WINDOW;
  const now = options.now ?? Date.now;
  const running = new WeakMap<Document, Promise<number>>();
  const soon = new WeakSet<Document>();
  let instance: Hocuspocus | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  const pass = async (document: Document): Promise<number> => {
    const store = options.store();
    if (!store) return 0;
    try {
      const moved = await archiveRoom(document, document.name, store, now(), window);
      if (moved > 0)
        options.log(`moved ${moved} finished tasks of room=${JSON.stringify(document.name)} to the store`);
      return moved;
    } catch (e) {
      options.log(`moving tasks of room=${JSON.stringify(document.name)} failed: ${(e as Error).message}`);
      return 0;
    }
  };
  const archiveNow = (document: Document): Promise<number> => {
    let p = running.get(document);
    if (!p) {
      p = pass(document).finally(() => running.delete(document));
      running.set(document, p);
    }
    return p;
  };

  const extension: Extension = {
    extensionName: 'team-space-archiver',
    // After the referee's migration (900), before the persistence stores what the pass changed.
    priority: 850,
    async onConfigure({ instance: i }) {
      instance = i;
      timer = setInterval(() => {
        for (const document of instance?.documents.values() ?? []) void archiveNow(document);
      }, options.everyMs ?? DEFAULT_ARCHIVE_EVERY_MS);
      timer.unref();
    },
    async afterLoadDocument({ document }) {
      await archiveNow(document);
    },
    async onChange({ document }) {
      if (soon.has(document)) return;
      if (document.getMap(TEAM_DOC_ROOTS.tasks).size <= window.maxTasks * OVERFULL) return;
      soon.add(document);
      setTimeout(() => {
        soon.delete(document);
        void archiveNow(document);
      }, SOON_MS).unref();
    },
    async onDestroy() {
      clearInterval(timer);
    },
  };
  return { extension, archiveNow };
}
