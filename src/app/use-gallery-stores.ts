import { startTransition, useEffect, useState } from 'react';
import { openConnectionStores, type ConnectionStores } from '../model/connection-stores';
import type { HistoryStore } from '../model/history/history-store';

// The gallery's stores of one connection (stars and ratings, hidden tasks, kept copies): the
// connection's stores (model/connection-stores.ts, the same instances the tasks' lifecycle holds),
// handed down by the composition root. The stars and ratings travel in the history file: a section of
// the connection's history.

export type GalleryStores = Pick<ConnectionStores, 'judgements' | 'hidden' | 'keepers'>;

export function useGalleryStores(
  connectionId: string | undefined,
  history: HistoryStore | null,
): GalleryStores | null {
  const [stores, setStores] = useState<GalleryStores | null>(null);
  useEffect(() => {
    if (!connectionId) return;
    let live = true;
    const lease = openConnectionStores(connectionId);
    lease.stores.then(
      ({ judgements, hidden, keepers }) => {
        // A transition, as the tasks' runner (use-tasks.ts): the views that read these stores draw in slices.
        if (live) startTransition(() => setStores({ judgements, hidden, keepers }));
      },
      // The same stores failed for the tasks too, and useTasks says why (features/tasks/use-tasks.ts):
      // the gallery stays without them, with no second notice and no unhandled rejection.
      () => undefined,
    );
    return () => {
      live = false;
      lease.release();
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
