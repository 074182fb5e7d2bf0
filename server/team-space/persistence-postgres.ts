import { Database } from '@hocuspocus/extension-database';
import type {
  beforeHandleMessagePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import pg from 'pg';
import * as Y from 'yjs';
import { WriteAheadLog, type LogRow } from './write-ahead-log';

// The team space's documents in one shared PostgreSQL (docs/deploying.md, several nodes): Hocuspocus's
// Database extension, given a fetch and a store over one table, one row per document holding its whole Yjs
// state. Beside it, the write-ahead log (`<table>_log`, write-ahead-log.ts): every update a node's client
// sends is inserted there before the node applies and acknowledges it, so an acknowledged edit survives
// the node's death within the store's debounce. Every node reads every node's rows when it loads a room.

export interface PostgresPersistenceOptions {
  /** postgres://user:password@host:port/database, as `pg` reads it. */
  connectionString: string;
  /** The table (created if missing). Default `team_space_documents`. */
  table?: string;
  /**
   * Connections per node (default 10: a store is one short transaction per document per debounce, and
   * each update one insert, awaited before it is applied).
   */
  maxConnections?: number;
  /**
   * Write every update to the log before it is applied (default true). False only for the durability
   * test's control and the cost measurement: an acknowledged edit is then lost if the node dies within
   * the store's debounce.
   */
  writeAheadLog?: boolean;
}

export const DEFAULT_TABLE = 'team_space_documents';

/**
 * Runs `work` in one transaction on a connection of the pool (`begin` opens it: an isolation level, read
 * only): committed, or rolled back on a throw.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

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
  /** The write-ahead log's table: `<table>_log`. */
  readonly logTable: string;
  readonly writeAheadLog: WriteAheadLog;
  private tableReady: Promise<void> | undefined;

  constructor(options: PostgresPersistenceOptions) {
    const table = options.table ?? DEFAULT_TABLE;
    const logTable = `${table}_log`;
    if (!PLAIN_NAME.test(table) || !PLAIN_NAME.test(logTable))
      throw new Error(`Team space table "${table}": use lower-case letters, digits and _ (59 at most).`);
    super({});
    this.table = table;
    this.logTable = logTable;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
    });
    this.writeAheadLog = new WriteAheadLog(
      {
        append: async (name, update) => {
          await this.ensureTable();
          await this.pool.query(`INSERT INTO ${this.logTable} (name, data) VALUES ($1, $2)`, [
            name,
            Buffer.from(update.buffer, update.byteOffset, update.byteLength),
          ]);
        },
        rows: async (name) => {
          await this.ensureTable();
          const { rows } = await this.pool.query<{ id: string; data: Buffer }>(
            `SELECT id, data FROM ${this.logTable} WHERE name = $1 ORDER BY id`,
            [name],
          );
          return rows.map(logRow);
        },
        remove: async (name, ids) => {
          await this.pool.query(`DELETE FROM ${this.logTable} WHERE name = $1 AND id = ANY($2::bigint[])`, [
            name,
            ids.map(String),
          ]);
        },
      },
      options.writeAheadLog ?? true,
    );
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

  async beforeHandleMessage(data: beforeHandleMessagePayload): Promise<void> {
    await this.writeAheadLog.beforeHandleMessage(data);
  }

  /**
   * The room's stored state and its log rows, read in one snapshot of the database (REPEATABLE READ):
   * another node's store that trims rows commits the state holding them first, so no row can be missed
   * between the two reads. A room loaded with rows (a node died before storing them, or another node
   * holds the room and has not stored yet) is stored at once, and the rows it then holds trimmed.
   */
  override async onLoadDocument({ documentName, document }: onLoadDocumentPayload): Promise<void> {
    await this.ensureTable();
    const { state, rows } = await this.transaction(
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
      async (client) => ({
        state: (
          await client.query<{ state: Buffer }>(`SELECT state FROM ${this.table} WHERE name = $1`, [
            documentName,
          ])
        ).rows[0]?.state,
        rows: (
          await client.query<{ id: string; data: Buffer }>(
            `SELECT id, data FROM ${this.logTable} WHERE name = $1 ORDER BY id`,
            [documentName],
          )
        ).rows.map(logRow),
      }),
    );
    if (state) Y.applyUpdate(document, new Uint8Array(state));
    if ((await this.writeAheadLog.replay(documentName, document, rows)) > 0)
      await this.store(documentName, document);
  }

  override async onStoreDocument({ documentName, document }: onStoreDocumentPayload): Promise<void> {
    await this.store(documentName, document);
  }

  /**
   * The document's state stored (merged with the row, save below), then the log rows it holds trimmed,
   * whichever node wrote them: the snapshot is taken with the encoding, in one synchronous run.
   */
  private async store(documentName: string, document: Y.Doc): Promise<void> {
    const stored = Y.snapshot(document);
    await this.save(documentName, Y.encodeStateAsUpdate(document));
    await this.writeAheadLog.trim(documentName, stored);
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
    await this.transaction('BEGIN', async (client) => {
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
    });
  }

  private transaction<T>(begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work, begin);
  }

  /**
   * Creates the table once per node, on first use rather than at start, so a node can start before the
   * database is reachable. Two nodes starting together both try: the advisory lock makes the second wait
   * (two concurrent CREATE TABLE IF NOT EXISTS can otherwise fail on PostgreSQL's catalog). A failure is
   * retried on the next use.
   */
  private ensureTable(): Promise<void> {
    this.tableReady ??= this.transaction('BEGIN', async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`create:${this.table}`]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (
           name text PRIMARY KEY,
           state bytea NOT NULL,
           updated_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.logTable} (
           id bigserial PRIMARY KEY,
           name text NOT NULL,
           data bytea NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      await client.query(`CREATE INDEX IF NOT EXISTS ${this.logTable}_name ON ${this.logTable} (name, id)`);
    }).catch((error: unknown) => {
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

function logRow(row: { id: string; data: Buffer }): LogRow {
  return { id: row.id, update: new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength) };
}
