import type { ConnectionStoresLease } from '../model/connection-stores';
import { HiddenTasks } from '../model/history/hidden-tasks';
import { HistoryStore } from '../model/history/history-store';
import { JudgementStore } from '../model/history/judgements';
import { KeepersStore } from '../model/history/keepers';
import { PresetStore } from '../model/library/presets';
import { PromptLibrary } from '../model/library/prompt-library';

// Test-only: a connection's stores as one browser tab opens them (model/connection-stores.ts shares one
// set per connection within a page; tabs of one connection each read their own from IndexedDB). A test
// that plays several tabs in one process hands this to ConnectionRuntime.open as `openStores`.

export function openTabStores(connectionId: string): ConnectionStoresLease {
  const stores = Promise.all([
    HistoryStore.open(connectionId),
    PresetStore.open(connectionId),
    PromptLibrary.open(connectionId),
    JudgementStore.open(connectionId),
    HiddenTasks.open(connectionId),
    KeepersStore.open(connectionId),
  ]).then(([history, presets, prompts, judgements, hidden, keepers]) => ({
    history,
    presets,
    prompts,
    judgements,
    hidden,
    keepers,
  }));
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
