import { Database } from '@hocuspocus/extension-database';
import pg from 'pg';
import * as Y from 'yjs';

// The team space's documents in one shared PostgreSQL (docs/deploying.md, several nodes): Hocuspocus's
// Database extension, given a fetch and a store over one table, one row per document holding its whole Yjs
// state.

export interface PostgresPersistenceOptions {
  /** postgres://user:password@host:port/database, as `pg` reads it. */
  connectionString: string;
  /** The table (created if missing). Default `team_space_documents`. */
  table?: string;
  /** Connections per node (default 5: a store is one short transaction per document per debounce). */
  maxConnections?: number;
}

export const DEFAULT_TABLE = 'team_space_documents';

/** The table name goes into SQL text (identifiers cannot be query parameters), so only a plain name. */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Both states in one document, encoded again. Through a Y.Doc rather than Y.mergeUpdates: merging the
 * encoded updates keeps the content of every deleted item (a replaced task's old value) in the row for
 * good, where a document garbage-collects it as Hocuspocus's own documents do.
 */
function union(stored: Uint8Array, state: Uint8Array): Uint8Array {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, stored);
    Y.applyUpdate(doc, state);
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}

export class PostgresPersistence extends Database {
  readonly pool: pg.Pool;
  private readonly table: string;
  private tableReady: Promise<void> | undefined;

  constructor(options: PostgresPersistenceOptions) {
    const table = options.table ?? DEFAULT_TABLE;
    if (!PLAIN_NAME.test(table))
      throw new Error(`Team space table "${table}": use lower-case letters, digits and _.`);
    super({});
    this.table = table;
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 5 });
    // The extension's two hooks, as its authors intend: it applies what fetch answers to the document on
    // load, and hands store the document's whole state (Y.encodeStateAsUpdate) after each debounce.
    this.configuration = {
      fetch: ({ documentName }) => this.load(documentName),
      store: ({ documentName, state }) => this.save(documentName, state),
    };
    // An idle connection that breaks (PostgreSQL restarted) is reported here; without a listener it would
    // crash the node. The next query opens a new one.
    this.pool.on('error', (error) =>
      console.error(`Team space: PostgreSQL connection lost (${error.message}).`),
    );
  }

  /** A document's stored state, or null for a room never stored. */
  async load(documentName: string): Promise<Uint8Array | null> {
    await this.ensureTable();
    const { rows } = await this.pool.query<{ state: Buffer }>(
      `SELECT state FROM ${this.table} WHERE name = $1`,
      [documentName],
    );
    return rows[0] ? new Uint8Array(rows[0].state) : null;
  }

  /**
   * Stores `state` merged with what the table already holds, under a per-document lock. Every node stores
   * its whole state, and Redis brings a node another node's edits one round trip later: a node a moment
   * behind could otherwise overwrite a row holding an edit it has not seen yet, and if that was the last
   * store of the room, the edit would be gone from the table. The merge keeps the union of every store.
   */
  async save(documentName: string, state: Uint8Array): Promise<void> {
    await this.ensureTable();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Serialises the stores of one document across nodes (a row lock cannot, before the row exists).
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `${this.table}:${documentName}`,
      ]);
      const { rows } = await client.query<{ state: Buffer }>(
        `SELECT state FROM ${this.table} WHERE name = $1`,
        [documentName],
      );
      const merged = rows[0] ? union(new Uint8Array(rows[0].state), state) : state;
      await client.query(
        `INSERT INTO ${this.table} (name, state, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
        [documentName, Buffer.from(merged)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Creates the table once per node, on first use rather than at start, so a node can start before the
   * database is reachable. Two nodes starting together both try: the advisory lock makes the second wait
   * (two concurrent CREATE TABLE IF NOT EXISTS can otherwise fail on PostgreSQL's catalog). A failure is
   * retried on the next use.
   */
  private ensureTable(): Promise<void> {
    this.tableReady ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`create:${this.table}`]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.table} (
             name text PRIMARY KEY,
             state bytea NOT NULL,
             updated_at timestamptz NOT NULL DEFAULT now()
           )`,
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      this.tableReady = undefined;
      throw error;
    });
    return this.tableReady;
  }

  /** Hocuspocus calls this on destroy (the node's close()): the pool's connections go with it. */
  async onDestroy(): Promise<void> {
    await this.pool.end();
  }
}
