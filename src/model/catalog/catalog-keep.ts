import type { CatalogKeep } from '../../api/queries/catalog-queries';
import { db as openDb } from '../db';
import { Listeners } from '../../lib/store';

// The last catalog answers a connection saw, on this device (IndexedDB, keyed by the connection's id, a
// hash of base URL + key: the key itself is never stored). The catalog and a form then open again
// offline (docs/offline.md). Only catalog answers are kept: models, AI tools and templates, the same
// for every key of the service; forgotten with the connection (`forgetCatalog`).

interface Deps {
  db?: typeof openDb;
  now?: () => number;
}

export class CatalogKeepStore implements CatalogKeep {
  readonly #connectionId: string;
  readonly #db: typeof openDb;
  readonly #now: () => number;
  readonly #listeners = new Listeners();
  #offlineFrom: number | null = null;

  constructor(connectionId: string, deps: Deps = {}) {
    this.#connectionId = connectionId;
    this.#db = deps.db ?? openDb;
    this.#now = deps.now ?? Date.now;
  }

  save(key: string, data: unknown): void {
    const record = { connectionId: this.#connectionId, key, data, savedAt: this.#now() };
    // A device that cannot store (private mode, quota) still shows the catalog it just fetched.
    void this.#db()
      .then((database) => database.put('catalog', record))
      .catch(() => undefined);
  }

  async load(key: string): Promise<{ data: unknown; savedAt: number } | undefined> {
    const record = await (await this.#db()).get('catalog', [this.#connectionId, key]);
    if (!record || typeof record.savedAt !== 'number') return undefined;
    return { data: record.data, savedAt: record.savedAt };
  }

  answered(): void {
    if (this.#offlineFrom === null) return;
    this.#offlineFrom = null;
    this.#emit();
  }

  served(savedAt: number): void {
    if (this.#offlineFrom !== null && this.#offlineFrom <= savedAt) return;
    this.#offlineFrom = savedAt;
    this.#emit();
  }

  offlineFrom = (): number | null => this.#offlineFrom;

  subscribe = this.#listeners.subscribe;

  #emit() {
    this.#listeners.notify();
  }
}

/** Disconnect: this connection's kept catalog goes with its key. */
export async function forgetCatalog(connectionId: string, db: typeof openDb = openDb): Promise<void> {
  const database = await db();
  const tx = database.transaction('catalog', 'readwrite');
  const keys = await tx.store.index('byConnection').getAllKeys(connectionId);
  await Promise.all([...keys.map((key) => tx.store.delete(key)), tx.done]);
}
