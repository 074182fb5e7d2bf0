import { useMemo } from 'react';
import type { ConnectionRuntime } from '../model/connection-runtime';
import type { ConnectionStores } from '../model/connection-stores';

// The gallery's stores of one connection (stars and ratings, hidden tasks, kept copies): the connection
// runtime's (model/connection-runtime.ts, which also puts the stars and ratings in the history file),
// handed down by the composition root.

export type GalleryStores = Pick<ConnectionStores, 'judgements' | 'hidden' | 'keepers'>;

export function useGalleryStores(runner: ConnectionRuntime | null): GalleryStores | null {
  return useMemo(
    () => (runner ? { judgements: runner.judgements, hidden: runner.hidden, keepers: runner.keepers } : null),
    [runner],
  );
}
