import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { JudgementStore } from '../../../model/history/judgements';
import type { KeepersStore } from '../../../model/history/keepers';
import { galleryItemsOf } from '../gallery-item';
import type { HistoryEntry } from '../../../model/history/history-types';

// "Keep the keepers" (issue 12, item 7): every starred output is also saved on this device, whichever way
// it got its star (the Viewer, a tile, bulk Star, an imported file, another tab), and forgotten when the
// star goes. Saving runs one output after another inside the keepers store; a failure never undoes a star.
export function useKeepStarred(
  entries: readonly HistoryEntry[],
  judgements: JudgementStore,
  keepers: KeepersStore | null | undefined,
): void {
  const judged = useSyncExternalStore(judgements.subscribe, judgements.snapshot);
  useEffect(() => {
    if (!keepers) return;
    const { kept, saving } = keepers.snapshot();
    for (const item of galleryItemsOf(entries)) {
      if (!item.output) continue;
      const starred = judged.get(item.key)?.starred === true;
      if (starred && !kept.has(item.key) && !saving.has(item.key)) void keepers.keep(item);
      // Only outputs of this history lose their copy: one whose task is not listed (yet) keeps it.
      if (!starred && kept.has(item.key)) void keepers.forget(item.key);
    }
  }, [entries, judged, keepers]);
}

/** The kept copy of an output URL, as an object URL, for a media element whose URL no longer answers. */
export function useKeptCopy(keepers: KeepersStore | null | undefined) {
  return useCallback(
    async (url: string): Promise<string | null> => {
      if (!keepers) return null;
      for (const [key, info] of keepers.snapshot().kept)
        if (info.url === url) return keepers.objectUrlFor(key);
      return null;
    },
    [keepers],
  );
}
