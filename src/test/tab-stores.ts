import { openAll, type ConnectionStoresLease } from '../model/connection-stores';

// Test-only: a connection's stores as one browser tab opens them (model/connection-stores.ts shares one
// set per connection within a page; tabs of one connection each read their own from IndexedDB). A test
// that plays several tabs in one process hands this to ConnectionRuntime.open as `openStores`.

export function openTabStores(connectionId: string): ConnectionStoresLease {
  const stores = openAll(connectionId);
  let released = false;
  return {
    stores,
    release: () => {
      if (released) return;
      released = true;
      stores.then(
        (s) => s.keepers.close(),
        () => undefined,
      );
    },
  };
}
