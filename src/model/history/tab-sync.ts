import { isTerminal } from '../../../contract/task';
import { entrySignature, type HistoryStore } from './history-store';
import { HistoryEntrySchema, type HistoryEntry } from './history-types';

// Tabs open on one connection share its history and its one GET /tasks budget (tasks from other
// tabs join the same schedule; api-notes §8: the limit is per key, not per tab):
// - shareHistory(): every change a tab makes to its history (a submit, a poll's answer, an import) is
//   told to the other tabs (BroadcastChannel), which take it into theirs;
// - pollerLeadership(): one tab at a time polls, the holder of the connection's Web Lock; when it
//   closes or disconnects, the next tab waiting for the lock takes over, with every task in its history.
// Without these APIs (an old browser, a test environment) each tab polls for itself, as before.

const channelName = (connectionId: string) => `media-studio:history:${connectionId}`;
const lockName = (connectionId: string) => `media-studio:poller:${connectionId}`;

/** What a tab may learn from another about a task: enough to tell an echo from news. */
const signature = entrySignature;

/**
 * Changed entries; or, after a bulk write (an import of thousands), only `reread`: the other tabs read
 * the disk again in background pages, instead of one message of every entry (a long task to send and
 * to take in).
 */
interface Message {
  entries?: unknown[];
  reread?: boolean;
}

/** Shares the history's changes with the other tabs of the connection; returns the undo. */
export function shareHistory(store: HistoryStore, connectionId: string): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(channelName(connectionId));
  /** The entry object each task had when last compared, and the signature last sent or received. */
  const seen = new Map<string, HistoryEntry>();
  const told = new Map<string, string>();
  for (const e of store.localList()) {
    seen.set(e.taskId, e);
    told.set(e.taskId, signature(e));
  }
  let queued = false;
  let closed = false;
  let bulkTold = store.bulkWrites;

  const sendChanges = () => {
    queued = false;
    // Undone between a change and this microtask: a closed channel throws on postMessage.
    if (closed) return;
    if (store.bulkWrites !== bulkTold) {
      bulkTold = store.bulkWrites;
      channel.postMessage({ reread: true } satisfies Message);
    }
    const changed: HistoryEntry[] = [];
    for (const e of store.localList()) {
      if (seen.get(e.taskId) === e) continue;
      seen.set(e.taskId, e);
      const sig = signature(e);
      // As IndexedDB has it (the older pages arrive after open; an import): every tab has it or re-reads.
      if (store.fromDisk(e)) {
        told.set(e.taskId, sig);
        continue;
      }
      if (told.get(e.taskId) === sig) continue; // what another tab just told us
      told.set(e.taskId, sig);
      changed.push(e);
    }
    if (changed.length > 0) channel.postMessage({ entries: changed } satisfies Message);
  };
  const off = store.subscribe(() => {
    // One comparison per burst of changes (an import adds thousands at once).
    if (queued) return;
    queued = true;
    queueMicrotask(sendChanges);
  });

  channel.onmessage = (event: MessageEvent<Message>) => {
    if (event.data?.reread === true) void store.reread();
    const entries = Array.isArray(event.data?.entries) ? event.data.entries : [];
    const news: HistoryEntry[] = [];
    for (const raw of entries) {
      const parsed = HistoryEntrySchema.safeParse(raw);
      if (!parsed.success || parsed.data.connectionId !== connectionId) continue;
      const entry = parsed.data;
      const mine = store.get(entry.taskId);
      // A finished task stays finished: a late message from a tab that had not heard yet changes nothing.
      if (mine && isTerminal(mine.status) && !isTerminal(entry.status)) continue;
      told.set(entry.taskId, signature(entry));
      news.push(entry);
    }
    // One change of the history for the whole message, not one per entry.
    if (news.length > 0) void store.receive(news);
  };

  return () => {
    closed = true;
    off();
    channel.close();
  };
}

/**
 * Calls `onChange(true)` when this tab becomes the one that polls the connection's tasks, and
 * `onChange(false)` if it stops being it. Returns the undo, which gives the lead to the next tab.
 */
export function pollerLeadership(connectionId: string, onChange: (leader: boolean) => void): () => void {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) {
    onChange(true);
    return () => undefined;
  }
  const controller = new AbortController();
  let release: (() => void) | null = null;
  let done = false;
  locks
    .request(lockName(connectionId), { signal: controller.signal }, () => {
      if (done) return undefined;
      onChange(true);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    })
    .catch(() => undefined); // aborted while waiting: this tab went away first
  return () => {
    done = true;
    controller.abort();
    if (release) {
      release();
      onChange(false);
    }
  };
}
