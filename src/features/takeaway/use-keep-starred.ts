import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { HistoryStore } from '../../model/history/history-store';
import type { JudgementStore, Judgements } from '../../model/history/judgements';
import type { KeepersStore } from '../../model/history/keepers';
import { taskIdOfKey } from '../../model/history/output-key';
import { galleryItemsOf } from '../../model/gallery/gallery-item';

// "Keep the keepers": every starred output is also saved on this device, whichever way it got its star
// (the Viewer, a tile, bulk Star, an imported file, another tab), and forgotten when the star goes. The
// keepers store takes the saves a few at a time and remembers the failed ones; a failure never undoes
// a star.
//
// The work follows the stars, not the history: a change of the judgements goes through the judged
// outputs (a few), each task found by id; a change of the history (every poll answer) looks only at
// the outputs still waiting for their task to be listed and at failed saves whose back-off is over,
// and usually finds none: no pass over the history, no request.

/** What the hook reads of the history: its changes, and a task by id. */
type HistoryLookup = Pick<HistoryStore, 'subscribe' | 'get'>;

export function useKeepStarred(
  history: HistoryLookup,
  judgements: JudgementStore,
  keepers: KeepersStore | null | undefined,
): void {
  const judged = useSyncExternalStore(judgements.subscribe, judgements.snapshot);
  const latest = useRef(judged);
  /** Outputs whose task is not listed yet (the older pages still being read, another tab's task). */
  const waiting = useRef(new Set<string>());

  useEffect(() => {
    latest.current = judged;
    if (!keepers) return;
    const keys = new Set<string>();
    for (const [key, j] of judged) if (j.starred) keys.add(key);
    for (const key of keepers.snapshot().kept.keys()) keys.add(key);
    for (const key of keepers.failedKeys()) keys.add(key);
    waiting.current = settle(keys, judged, history, keepers);
  }, [history, judged, keepers]);

  useEffect(() => {
    if (!keepers) return;
    return history.subscribe(() => {
      const due = keepers.dueForRetry();
      if (waiting.current.size === 0 && due.length === 0) return;
      const keys = new Set([...waiting.current, ...due]);
      waiting.current = settle(keys, latest.current, history, keepers);
    });
  }, [history, keepers]);
}

/**
 * Keeps the starred outputs among `keys` and forgets the others; returns those whose task the history
 * does not list yet. Only outputs of this history lose their copy: one whose task is not listed keeps it.
 */
function settle(
  keys: Iterable<string>,
  judged: Judgements,
  history: HistoryLookup,
  keepers: KeepersStore,
): Set<string> {
  const unlisted = new Set<string>();
  for (const key of keys) {
    const starred = judged.get(key)?.starred === true;
    const kept = keepers.has(key);
    if (!starred && !kept) keepers.clearFailure(key);
    if (starred === kept) continue;
    const entry = history.get(taskIdOfKey(key));
    const item = entry && galleryItemsOf([entry]).find((i) => i.key === key);
    if (!item) {
      unlisted.add(key);
      continue;
    }
    if (!item.output) continue;
    if (starred) void keepers.keep(item);
    else void keepers.forget(key);
  }
  return unlisted;
}
