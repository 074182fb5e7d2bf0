import { useEffect, useState } from 'react';
import { HiddenTasks } from '../model/history/hidden-tasks';
import { JudgementStore } from '../model/history/judgements';
import { KeepersStore } from '../model/history/keepers';

// The gallery's stores of one connection (stars and ratings, hidden tasks), opened once by the
// composition root and handed down (STYLE: the root creates the stores per connection).

export interface GalleryStores {
  judgements: JudgementStore;
  hidden: HiddenTasks;
  /** Starred outputs' bytes, kept on this device. */
  keepers: KeepersStore;
}

export function useGalleryStores(connectionId: string | undefined): GalleryStores | null {
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
  return stores?.judgements.connectionId === connectionId ? stores : null;
}
