import { Bell } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button } from '../../components/button';
import { isTerminal, type TaskStatus } from '../../../contract/task';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';

const BASE_TITLE = 'Media Studio';
const NO_ENTRIES: HistoryEntry[] = [];
const noSubscription = () => () => undefined;
const noEntries = () => NO_ENTRIES;

/**
 * Finished tasks raise a title badge ("(2) Media Studio") until the user comes back to the tab, and a
 * browser notification when the user allowed them and is looking elsewhere (product-notes §3, Everywhere).
 */
export function useFinishNotices(store: HistoryStore | null) {
  // getSnapshot must return the same array while nothing changes, or React re-renders forever.
  const entries = useSyncExternalStore(store?.subscribe ?? noSubscription, store?.list ?? noEntries);
  const unseen = entries.filter((e) => e.unseen).length;
  const known = useRef(new Map<string, TaskStatus>());

  useEffect(() => {
    document.title = unseen ? `(${unseen}) ${BASE_TITLE}` : BASE_TITLE;
  }, [unseen]);

  useEffect(() => {
    if (!store) return;
    const seen = () => {
      if (document.visibilityState === 'visible') void store.markSeen();
    };
    window.addEventListener('focus', seen);
    document.addEventListener('visibilitychange', seen);
    return () => {
      window.removeEventListener('focus', seen);
      document.removeEventListener('visibilitychange', seen);
      document.title = BASE_TITLE;
    };
  }, [store]);

  useEffect(() => {
    const previous = known.current;
    const next = new Map<string, TaskStatus>();
    for (const e of entries) {
      next.set(e.taskId, e.status);
      const before = previous.get(e.taskId);
      const justFinished = before !== undefined && !isTerminal(before) && isTerminal(e.status);
      if (justFinished && e.unseen && 'Notification' in window && Notification.permission === 'granted') {
        new Notification(`Task ${e.status}: ${e.meta.title}`, {
          body:
            typeof e.request.params.prompt === 'string' ? e.request.params.prompt.slice(0, 120) : undefined,
          tag: e.taskId,
        });
      }
    }
    known.current = next;
  }, [entries]);
}

export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!('Notification' in window)) return 'unsupported';
  return Notification.permission === 'default' ? Notification.requestPermission() : Notification.permission;
}

/** Offers browser notifications for finished tasks until the user has answered the browser's question. */
export function NotifyButton() {
  const [permission, setPermission] = useState(() =>
    'Notification' in window ? Notification.permission : 'unsupported',
  );
  if (permission !== 'default') return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="mb-2"
      onClick={() => void askNotificationPermission().then(setPermission)}
    >
      <Bell className="size-3.5" aria-hidden="true" />
      Notify me when tasks finish
    </Button>
  );
}
