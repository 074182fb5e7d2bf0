import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks } from 'idb';
import type { TaskRequest } from '../../contract/task';
import type { HistoryEntry } from './history/history-types';

// The studio's IndexedDB (product-notes §2: task history, outbox, uploads, boards and settings live in the
// browser). One database, one object store per kind of record, each keyed per connection (a hash of
// base URL + key, never the key) so a key only ever sees what it created.

export interface OutboxEntry {
  /** The Idempotency-Key: one per submit intent, sent with every (re)try of it. */
  idempotencyKey: string;
  connectionId: string;
  /** The exact POST /tasks body; a retry re-sends exactly this (api-notes §7). */
  request: TaskRequest;
  /** What the history shows for it once created. */
  meta: HistoryEntry['meta'];
  createdAt: number;
  attempts: number;
  lastAttemptAt: number | null;
  /** Why the last attempt ended without an answer, for the UI. */
  lastError: string | null;
  /** The batch (one click, several tasks) it belongs to; also in meta, for the history. */
  batchId?: string;
  /** Held back by the queue (model/queue/queue.ts): not sent yet, so never charged; the outbox leaves it. */
  held?: HeldInfo;
}

/** A task the studio holds in its queue until the key's pool is about to free a place (docs/queue.md). */
export interface HeldInfo {
  /** Order in the queue: the lowest goes first. */
  position: number;
  /** Held by itself even when the queue runs. */
  paused: boolean;
  queuedAt: number;
  /** The price quoted when it was queued (credits), or null when unknown. */
  credits: number | null;
  /** Why it cannot be sent (a refusal that would repeat): it waits for the user. */
  blocked: string | null;
  /** A higher price asked since it was queued: sent only once the user agrees. */
  newPrice: number | null;
}

/**
 * The stores keyed [connectionId, <key field>] with a byConnection index on the connection alone, and
 * each one's key field: the local stores of what the user does (local-records.ts reads and writes them).
 */
interface KeyedStores {
  judgements: 'outputKey';
  hidden: 'taskId';
  keepers: 'outputKey';
  presets: 'id';
  prompts: 'text';
  votes: 'id';
  catalog: 'key';
  reviews: 'outputKey';
  tags: 'outputKey';
  searches: 'id';
}
export type KeyedStoreName = keyof KeyedStores;
/** The field that, with the connection, keys a record of the store. */
export type KeyField<N extends KeyedStoreName> = KeyedStores[N];

/**
 * A record of a keyed store: its key fields, and whatever else its module writes. The module that owns a
 * store parses what it reads with its own zod schema (reads are never trusted), so the database layer
 * needs to know no more of it than its key.
 */
type StoredRecord<K extends string> = { connectionId: string } & { [P in K]: string } & Record<
    string,
    unknown
  >;

type Keyed<N extends KeyedStoreName> = {
  key: [string, string];
  value: StoredRecord<KeyField<N>>;
  indexes: { byConnection: string };
};

interface StudioDB extends DBSchema {
  tasks: {
    /** [connectionId, taskId]: the same task may be in the history of two connections (import). */
    key: [string, string];
    value: HistoryEntry;
    indexes: { byConnection: [string, number] };
  };
  outbox: {
    key: string;
    value: OutboxEntry;
    indexes: { byConnection: string };
  };
  uploads: {
    /** [connectionId, url]: the same file uploaded twice is one entry. */
    key: [string, string];
    value: StoredRecord<'url'>;
    indexes: { byConnection: [string, number] };
  };
  boards: {
    key: [string, string];
    value: StoredRecord<'id'>;
    indexes: { byConnection: [string, number] };
  };
  /** Star and rating of one output; [connectionId, outputKey] (outputKey: `${taskId}#${index}`). */
  judgements: Keyed<'judgements'>;
  /** Tasks hidden from this device's history (never touches the service); [connectionId, taskId]. */
  hidden: Keyed<'hidden'>;
  /** Starred outputs kept on this device (their bytes or where they are); [connectionId, outputKey]. */
  keepers: Keyed<'keepers'>;
  /** Named form states; [connectionId, id]. */
  presets: Keyed<'presets'>;
  /** Every prompt sent, deduplicated; [connectionId, text]. */
  prompts: Keyed<'prompts'>;
  /** Blind comparison votes; [connectionId, id]. */
  votes: Keyed<'votes'>;
  /** The last catalog answers this connection saw, for reopening offline; [connectionId, key]. */
  catalog: Keyed<'catalog'>;
  /** One review of one output (Approve, Needs changes, Reject); [connectionId, outputKey]. */
  reviews: Keyed<'reviews'>;
  /** One output's tags (this member's); [connectionId, outputKey]. */
  tags: Keyed<'tags'>;
  /** Saved searches (a name and the search box's text); [connectionId, id]. */
  searches: Keyed<'searches'>;
}

/** The stores added in v5, each keyed by [connectionId, <its key field>] with a byConnection index. */
const V5_STORES = {
  judgements: 'outputKey',
  hidden: 'taskId',
  keepers: 'outputKey',
  presets: 'id',
  prompts: 'text',
  votes: 'id',
} as const;

/** @internal */
export const DB_NAME = 'media-studio';
// v1 keyed tasks by taskId alone, so a task imported into a second connection's history moved out of
// the first one's. v2 keys them by [connectionId, taskId]. v3 adds the upload library, v4 the compare boards,
// v5 the stores of V5_STORES (the gallery's judgements, hidden tasks and keepers, presets, prompts, votes),
// v6 the catalog answers kept for offline (docs/offline.md), v7 the reviews of outputs, v8 the tags of
// outputs and the saved searches.
const DB_VERSION = 8;

let dbPromise: Promise<IDBPDatabase<StudioDB>> | null = null;

type Upgrade = NonNullable<OpenDBCallbacks<StudioDB>['upgrade']>;
/**
 * An error thrown after an await of the upgrade does not abort its transaction by itself: the database
 * would stay at the new version with the upgrade half done (stores missing for good). Aborted, the open
 * fails (every store falls back to this tab's memory) and the next load upgrades again.
 */
const abortOnFailure =
  (upgrade: (...args: Parameters<Upgrade>) => Promise<void>): Upgrade =>
  (...args) => {
    upgrade(...args).catch(() => {
      const transaction = args[3];
      // Its `done` rejects with the abort too: the open's rejection already says so.
      transaction.done.catch(() => undefined);
      transaction.abort();
    });
  };

/**
 * The studio's database under a name, opened (and upgraded) once for each call: `db()` is the studio's
 * one handle; a test opens another to show that a store writes where it is told.
 * @internal
 */
export function openStudioDb(name: string = DB_NAME): Promise<IDBPDatabase<StudioDB>> {
  return openDB<StudioDB>(name, DB_VERSION, {
    upgrade: abortOnFailure(async (database, oldVersion, _newVersion, transaction) => {
      if (oldVersion < 1) {
        const outbox = database.createObjectStore('outbox', { keyPath: 'idempotencyKey' });
        outbox.createIndex('byConnection', 'connectionId');
      }
      if (oldVersion < 2) {
        // Only this upgrade transaction's own requests are awaited here, so it stays alive.
        const kept = oldVersion >= 1 ? await transaction.objectStore('tasks').getAll() : [];
        if (oldVersion >= 1) database.deleteObjectStore('tasks');
        const tasks = database.createObjectStore('tasks', { keyPath: ['connectionId', 'taskId'] });
        tasks.createIndex('byConnection', ['connectionId', 'createdAt']);
        // A record without both key parts would fail the put and abort the whole upgrade: it is dropped.
        const keyed = kept.filter(
          (entry) => typeof entry.connectionId === 'string' && typeof entry.taskId === 'string',
        );
        await Promise.all(keyed.map((entry) => tasks.put(entry)));
      }
      if (oldVersion < 3) {
        const uploads = database.createObjectStore('uploads', { keyPath: ['connectionId', 'url'] });
        uploads.createIndex('byConnection', ['connectionId', 'createdAt']);
      }
      if (oldVersion < 4) {
        const boards = database.createObjectStore('boards', { keyPath: ['connectionId', 'id'] });
        boards.createIndex('byConnection', ['connectionId', 'updatedAt']);
      }
      if (oldVersion < 5) {
        for (const [name, keyField] of Object.entries(V5_STORES)) {
          const store = database.createObjectStore(name as keyof typeof V5_STORES, {
            keyPath: ['connectionId', keyField],
          });
          store.createIndex('byConnection', 'connectionId');
        }
      }
      if (oldVersion < 6) {
        const catalog = database.createObjectStore('catalog', { keyPath: ['connectionId', 'key'] });
        catalog.createIndex('byConnection', 'connectionId');
      }
      if (oldVersion < 7) {
        const reviews = database.createObjectStore('reviews', { keyPath: ['connectionId', 'outputKey'] });
        reviews.createIndex('byConnection', 'connectionId');
      }
      if (oldVersion < 8) {
        const tags = database.createObjectStore('tags', { keyPath: ['connectionId', 'outputKey'] });
        tags.createIndex('byConnection', 'connectionId');
        const searches = database.createObjectStore('searches', { keyPath: ['connectionId', 'id'] });
        searches.createIndex('byConnection', 'connectionId');
      }
    }),
  });
}

/** The studio's database, opened once (connection-stores.ts hands it to a connection's local stores). */
export function db(): Promise<IDBPDatabase<StudioDB>> {
  dbPromise ??= openStudioDb();
  return dbPromise;
}

/**
 * Tests: forget the open handle so a fresh fake IndexedDB is used.
 * @internal
 */
export function resetDbForTests(): void {
  dbPromise = null;
}

export type { StudioDB };
