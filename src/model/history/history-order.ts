import type { HistoryEntry } from './history-types';

// The history's lists, newest first, as readers get them (history-store.ts): this device's own and the
// merged one with the team's tasks. Each is the same array until something changes, and a change that
// keeps an entry's time takes the old entry's place in a copy of the list instead of sorting it all.

const newestFirst = (a: HistoryEntry, b: HistoryEntry) => b.createdAt - a.createdAt;

export class HistoryOrder {
  private localSorted: HistoryEntry[] | null = null;
  private sorted: HistoryEntry[] | null = null;

  constructor(
    private readonly entries: ReadonlyMap<string, HistoryEntry>,
    private readonly team: ReadonlyMap<string, HistoryEntry>,
  ) {}

  /** Newest first: this device's tasks and the team's ones this history lacks. */
  list(): HistoryEntry[] {
    if (this.sorted) return this.sorted;
    const local = this.localList();
    this.sorted =
      this.team.size === 0
        ? local
        : [...local, ...[...this.team.values()].filter((e) => !this.entries.has(e.taskId))].sort(newestFirst);
    return this.sorted;
  }

  /** Newest first: this device's tasks alone. */
  localList(): HistoryEntry[] {
    this.localSorted ??= [...this.entries.values()].sort(newestFirst);
    return this.localSorted;
  }

  /** Whether the lists are built and may be patched in place of a sort. */
  get built(): boolean {
    return this.sorted !== null && this.localSorted !== null;
  }

  /** Anything may have changed: both lists are built again when next read. */
  reset(): void {
    this.sorted = null;
    this.localSorted = null;
  }

  /** The team's tasks changed: `replaced`, when all kept their times, keeps the merged list's order. */
  teamChanged(replaced?: ReadonlyMap<string, HistoryEntry>): void {
    this.sorted = replaced && this.sorted ? this.sorted.map((e) => replaced.get(e.taskId) ?? e) : null;
  }

  /** One changed entry in its predecessor's place when its time is the same; else the lists are reset. */
  replace(previous: HistoryEntry | undefined, next: HistoryEntry): void {
    const at =
      previous && this.sorted && previous.createdAt === next.createdAt ? this.sorted.indexOf(previous) : -1;
    const localAt = previous && this.localSorted ? this.localSorted.indexOf(previous) : -1;
    if (at < 0 || localAt < 0) {
      this.reset();
      return;
    }
    const list = this.sorted!.slice();
    list[at] = next;
    this.sorted = list;
    if (this.localSorted !== this.sorted) {
      const local = this.localSorted!.slice();
      local[localAt] = next;
      this.localSorted = local;
    } else this.localSorted = list;
  }

  /** Changed entries, all with their times kept, each in its predecessor's place (lists built). */
  replaceAll(written: ReadonlyMap<string, HistoryEntry>): void {
    const same = this.localSorted === this.sorted;
    this.sorted = this.sorted!.map((e) => written.get(e.taskId) ?? e);
    this.localSorted = same ? this.sorted : this.localSorted!.map((e) => written.get(e.taskId) ?? e);
  }
}
