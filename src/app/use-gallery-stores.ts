import { useEffect, useState } from 'react';
import { HiddenTasks } from '../model/history/hidden-tasks';
import type { HistoryStore } from '../model/history/history-store';
import { JudgementStore } from '../model/history/judgements';
import { KeepersStore } from '../model/history/keepers';

// The gallery's stores of one connection (stars and ratings, hidden tasks), opened once by the
// composition root and handed down (the root creates the stores per connection). The stars and
// ratings travel in the history file: a section of the connection's history.

export interface GalleryStores {
  judgements: JudgementStore;
  hidden: HiddenTasks;
  /** Starred outputs' bytes, kept on this device. */
  keepers: KeepersStore;
}

export function useGalleryStores(
  connectionId: string | undefined,
  history: HistoryStore | null,
): GalleryStores | null {
  const [stores, setStores] = useState<GalleryStores | null>(null);
  useEffect(() => {
    if (!connectionId) return;
    let live = true;
    let opened: KeepersStore | null = null;
    void Promise.all([
      JudgementStore.open(connectionId),
      HiddenTasks.open(connectionId),
      KeepersStore.open(connectionId),
    ]).then(([judgements, hidden, keepers]) => {
      opened = keepers;
      if (live) setStores({ judgements, hidden, keepers });
      else keepers.close();
    });
    return () => {
      live = false;
      opened?.close();
    };
  }, [connectionId]);
  const current = stores?.judgements.connectionId === connectionId ? stores : null;
  const judgements = current?.judgements;
  useEffect(
    () => (history && judgements ? history.addSection('judgements', judgements.historySection()) : undefined),
    [history, judgements],
  );
  return current;
}
