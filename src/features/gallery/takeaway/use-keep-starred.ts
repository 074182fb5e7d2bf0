import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { JudgementStore } from '../../../model/history/judgements';
import type { KeepersStore } from '../../../model/history/keepers';
import { galleryItemsOf } from '../gallery-item';
import type { HistoryEntry } from '../../../model/history/history-types';
import { taskIdOfKey } from '../../../model/history/output-key';

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
    // From the stars and the kept copies (a few), not from every output of the history (200,000).
    const toKeep = [...judged].filter(([key, j]) => j.starred && !kept.has(key) && !saving.has(key));
    const toForget = [...kept.keys()].filter((key) => judged.get(key)?.starred !== true);
    if (toKeep.length === 0 && toForget.length === 0) return;
    const byTask = new Map(entries.map((e) => [e.taskId, e]));
    const itemOf = (key: string) => {
      const entry = byTask.get(taskIdOfKey(key));
      return entry && galleryItemsOf([entry]).find((item) => item.key === key);
    };
    for (const [key] of toKeep) {
      const item = itemOf(key);
      if (item?.output) void keepers.keep(item);
    }
    // Only outputs of this history lose their copy: one whose task is not listed (yet) keeps it.
    for (const key of toForget) if (itemOf(key)?.output) void keepers.forget(key);
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
