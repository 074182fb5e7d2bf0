import { isTerminal } from '../../../contract/task';
import type { HistoryEntry } from '../history/history-types';

// Apart from team-tasks.ts, which shares tasks through the team's document: the Queue reads the order
// on every start, with or without a team space, and this module keeps Yjs out of the studio's first
// evaluation (docs/benchmarks.md "lighthouse").

/**
 * The unfinished tasks of the list, oldest first (the service runs them first in, first out); not
 * another member's that nobody follows any more (HistoryEntry.by.unfollowed: its state is unknown).
 */
export function teamQueueOf(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return entries
    .filter((e) => !isTerminal(e.status) && !e.by?.unfollowed)
    .sort((a, b) => a.createdAt - b.createdAt);
}
