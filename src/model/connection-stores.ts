import { db } from './db';
import { HiddenTasks } from './history/hidden-tasks';
import { HistoryStore } from './history/history-store';
import { JudgementStore } from './history/judgements';
import { KeepersStore } from './history/keepers';
import { ReviewStore } from './history/reviews';
import { SavedSearchStore } from './history/saved-searches';
import { TagStore } from './history/tags';
import { PresetStore } from './library/presets';
import { PromptLibrary } from './library/prompt-library';
import { logWriteError, type LocalIo } from './local-records';

// The local stores of one connection (one key), opened in this one place: the tasks' lifecycle and the
// gallery both ask for them, and both get the same instances, so a change made through one is seen by
// the other and IndexedDB is read once. A different key gets different stores. Here the local stores are
// given the studio's database and who hears of a write that fails (LocalIo): they import neither.

export interface ConnectionStores {
  /** The history of everything this key created (the API cannot list tasks). */
  history: HistoryStore;
  /** This key's presets and prompt library (local, in the history file too). */
  presets: PresetStore;
  prompts: PromptLibrary;
  /** Stars and ratings. */
  judgements: JudgementStore;
  /** Reviews of outputs (Approve, Needs changes, Reject). */
  reviews: ReviewStore;
  /** Tags of outputs (this member's; in a team joined with everyone's: tagsByOutput). */
  tags: TagStore;
  /** Saved searches (a name and the search box's text). */
  searches: SavedSearchStore;
  /** Tasks hidden with the gallery's "Hide". */
  hidden: HiddenTasks;
  /** Starred outputs' bytes, kept on this device. */
  keepers: KeepersStore;
}

/** One holder's use of a connection's stores: `release()` once it no longer needs them. */
export interface ConnectionStoresLease {
  stores: Promise<ConnectionStores>;
  release: () => void;
}

interface Opened {
  stores: Promise<ConnectionStores>;
  holders: number;
}

const opened = new Map<string, Opened>();

/**
 * A connection's stores read afresh from IndexedDB, not shared (what each browser tab does; the tests of
 * several tabs in one process open them so). `io`: the database (default the studio's, db()) and who
 * hears of a failed write (default logWriteError: no words on screen say it yet).
 * @internal
 */
export async function openAll(connectionId: string, io: Partial<LocalIo> = {}): Promise<ConnectionStores> {
  const local: LocalIo = { db: io.db ?? db, onError: io.onError ?? logWriteError };
  const [history, presets, prompts, judgements, reviews, tags, searches, hidden, keepers] = await Promise.all(
    [
      HistoryStore.open(connectionId),
      PresetStore.open(connectionId, local),
      PromptLibrary.open(connectionId, local),
      JudgementStore.open(connectionId, local),
      ReviewStore.open(connectionId, local),
      TagStore.open(connectionId, local),
      SavedSearchStore.open(connectionId, local),
      HiddenTasks.open(connectionId, local),
      KeepersStore.open(connectionId, local),
    ],
  );
  return { history, presets, prompts, judgements, reviews, tags, searches, hidden, keepers };
}

/**
 * The stores of a connection, opened on the first request and shared by every holder after it. When the
 * last holder releases them they are closed (the kept copies' object URLs revoked) and forgotten: the
 * next request reads them afresh. `io` is the first request's (openAll): a holder that comes while they
 * are open shares them as they are.
 */
export function openConnectionStores(connectionId: string, io: Partial<LocalIo> = {}): ConnectionStoresLease {
  let entry = opened.get(connectionId);
  if (!entry) {
    const stores = openAll(connectionId, io);
    const created: Opened = { stores, holders: 0 };
    entry = created;
    opened.set(connectionId, created);
    // A failed open is not kept: the next request tries again.
    stores.catch(() => {
      if (opened.get(connectionId) === created) opened.delete(connectionId);
    });
  }
  const held = entry;
  held.holders += 1;
  let released = false;
  return {
    stores: held.stores,
    release: () => {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      if (opened.get(connectionId) === held) opened.delete(connectionId);
      held.stores.then(
        (stores) => stores.keepers.close(),
        () => undefined,
      );
    },
  };
}
