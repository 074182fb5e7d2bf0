import { describe } from 'vitest';
import { historyStoreConformance } from './history-store.conformance';
import { openSqlite, sqliteHistoryStore } from './history-sqlite';

describe('the SQLite history store', () => {
  historyStoreConformance(async () => {
    return sqliteHistoryStore(openSqlite());
  });
});
