import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Bell } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { isTerminal, type TaskStatus } from '../../../contract/task';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { statusWord } from '../../model/tasks/status-words';

const BASE_TITLE = 'Media Studio';

/**
 * Finished tasks raise a title badge ("(2) Media Studio") until the user comes back to the tab, and a
 * browser notification when the user allowed them and is looking elsewhere (product-notes §3, Everywhere).
 * Follows the history by subscription, outside rendering: its host (the whole studio) is not
 * re-rendered by a poll's answer.
 */
export function useFinishNotices(store: HistoryStore | null) {
  useEffect(() => {
    if (!store) return;
    /** The status each unfinished task had when last read (a change of an entry is a new object). */
    const known = new Map<string, TaskStatus>();
    const read = new WeakSet<HistoryEntry>();
    let unseen = -1;
    let queued = false;
    let live = true;
    const update = (notify: boolean) => {
      for (const e of store.localList()) {
        if (read.has(e)) continue;
        read.add(e);
        const before = known.get(e.taskId);
        if (isTerminal(e.status)) known.delete(e.taskId);
        else known.set(e.taskId, e.status);
        const justFinished = before !== undefined && isTerminal(e.status);
        if (
          notify &&
          justFinished &&
          e.unseen &&
          'Notification' in window &&
          Notification.permission === 'granted'
        ) {
          const status = statusWord(e.status);
          const { title } = e.meta;
          new Notification(t`Task ${status}: ${title}`, {
            body:
              typeof e.request.params.prompt === 'string' ? e.request.params.prompt.slice(0, 120) : undefined,
            tag: e.taskId,
          });
        }
      }
      const count = store.unseenCount();
      if (count !== unseen) {
        unseen = count;
        document.title = count ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
      }
    };
    update(false);
    // One reading per burst of changes (an import adds thousands at once).
    const off = store.subscribe(() => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        if (live) update(true);
      });
    });
    const seen = () => {
      if (document.visibilityState === 'visible') void store.markSeen();
    };
    window.addEventListener('focus', seen);
    document.addEventListener('visibilitychange', seen);
    return () => {
      live = false;
      off();
      window.removeEventListener('focus', seen);
      document.removeEventListener('visibilitychange', seen);
      document.title = BASE_TITLE;
    };
  }, [store]);
}

async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
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
      <Trans>Notify me when tasks finish</Trans>
    </Button>
  );
}
