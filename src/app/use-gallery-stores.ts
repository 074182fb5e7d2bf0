import { useEffect, useState } from 'react';
import { HiddenTasks } from '../lib/hidden-tasks';
import { JudgementStore } from '../lib/judgements';

// The gallery's stores of one connection (stars and ratings, hidden tasks), opened once by the
// composition root and handed down (STYLE: the root creates the stores per connection).

export interface GalleryStores {
  judgements: JudgementStore;
  hidden: HiddenTasks;
}

export function useGalleryStores(connectionId: string | undefined): GalleryStores | null {
  const [stores, setStores] = useState<GalleryStores | null>(null);
  useEffect(() => {
    if (!connectionId) return;
    let live = true;
    void Promise.all([JudgementStore.open(connectionId), HiddenTasks.open(connectionId)]).then(
      ([judgements, hidden]) => {
        if (live) setStores({ judgements, hidden });
      },
    );
    return () => {
      live = false;
    };
  }, [connectionId]);
  return stores?.judgements.connectionId === connectionId ? stores : null;
}
