import type { Page } from '@playwright/test';

/**
 * Every record of one of the studio's IndexedDB stores (database `media-studio`, src/model/db.ts), as the
 * page holds it: what a reload will read back.
 */
export const storedRecords = (page: Page, store: string): Promise<unknown[]> =>
  page.evaluate(
    (name) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('media-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction(name).objectStore(name).getAll();
          read.onsuccess = () => {
            open.result.close();
            resolve(read.result);
          };
          read.onerror = () => reject(read.error);
        };
      }),
    store,
  );
