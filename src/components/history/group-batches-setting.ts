import { Listeners } from '../../lib/store';
import { useSyncExternalStore } from 'react';

// "Group batches" is one setting of this browser, shared by the gallery's toolbar and the History's
// filters (turned on in one, the other follows) and remembered across reloads, like the tile size.

const KEY = 'media-studio:group-batches';
const listeners = new Listeners();

const read = (): boolean => globalThis.localStorage?.getItem(KEY) === '1';

function subscribe(listener: () => void) {
  const unsubscribe = listeners.subscribe(listener);
  // Another tab's change arrives as a storage event.
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    unsubscribe();
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

function setGroupBatches(on: boolean): void {
  if (on) globalThis.localStorage?.setItem(KEY, '1');
  else globalThis.localStorage?.removeItem(KEY);
  listeners.notify();
}

/** Whether batches are shown as stacks, and the setter. */
export function useGroupBatches(): [boolean, (on: boolean) => void] {
  return [useSyncExternalStore(subscribe, read, () => false), setGroupBatches];
}
