import {
  cursorBefore,
  HistoryPageAnswer,
  MAX_PAGE,
  MonthsAnswer,
  TEAM_HISTORY_ROUTES,
  type MonthSummary,
  type TaskAttachments,
} from '../../../contract/team-history';
import { acceptedRecord } from '../../../contract/team-doc';
import type { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../history/history-types';
import { Listeners, ValueStore } from '../../lib/store';
import type { EarlierSaid } from './team-attached';
import { changeTeamEntries, fromTeamTask, TeamTaskSchema } from './team-tasks';

// The team's earlier tasks (docs/team-space.md "History at scale"): the room's document holds the recent
// window; what left it is read from the team-space server in pages, newest first, as the History list
// reaches its end, and by search. What is read joins the team's entries of this device's history (in
// memory, as the document's do: never written to the device, never polled), so the list, its filters and
// the Gallery show it as any team task. The key goes in the Authorization header, as to the API.

type EarlierStatus = 'idle' | 'loading' | 'done' | 'error';

export interface EarlierState {
  /** Whether the room has moved any task to the server (nothing earlier to read before it has). */
  exists: boolean;
  status: EarlierStatus;
  /** Earlier tasks read so far. */
  loaded: number;
  /** A search of the earlier tasks is being answered. */
  searching: boolean;
  /**
   * Why the last read failed: the team space refused the key, had too many reads from it just now
   * (busy: a moment later it answers), or could not be reached.
   */
  error: 'refused' | 'busy' | 'unreachable' | null;
}

export interface TeamArchiveOptions {
  /** The team space's HTTP base: http(s)://studio-origin/sync. */
  baseUrl: string;
  token: () => string;
  history: HistoryStore;
  memberId: string;
  nameOf: (memberId: string) => string;
  /** The room's watermark (meta.archivedBefore): 0 while nothing has moved. */
  archivedBefore: () => number;
  /** Where what the team said about the tasks read goes (their judgements and comments). */
  said?: EarlierSaid;
  fetch?: typeof fetch;
}

/** How many tasks one read asks for. */
const PAGE = 200;

/**
 * A stretch of time read from its own end (the Gallery's dates): tasks made before `until` (ms), newest
 * first, until one made before `since` is reached. Absent ends are open.
 */
export interface EarlierRange {
  until?: number;
  since?: number;
}

/** What the list's end reads and asks of the team's earlier tasks (TeamArchive is one, and its ranges). */
export interface EarlierReader {
  subscribe: (listener: () => void) => () => void;
  snapshot: () => EarlierState;
  loadMore: () => Promise<void>;
  search: (query: string) => Promise<void>;
}

export class TeamArchive {
  private readonly kept = new Map<string, HistoryEntry>();
  /** The next page's cursor: undefined before the first read, null once the end is reached. */
  private next: string | null | undefined = undefined;
  private readonly state = new ValueStore<EarlierState>({
    exists: false,
    status: 'idle',
    loaded: 0,
    searching: false,
    error: null,
  });
  private readonly searched = new Set<string>();
  private readonly ranges = new Map<string, RangeReader>();
  private closed = false;

  constructor(private readonly o: TeamArchiveOptions) {
    this.refresh();
  }

  subscribe = this.state.subscribe;
  snapshot = this.state.snapshot;

  /** The earlier tasks read so far (the history bridge keeps them when it refills the team's entries). */
  entries(): IterableIterator<HistoryEntry> {
    return this.kept.values();
  }

  /** Looks at the watermark again (the room's meta changed). */
  refresh(): void {
    this.update({ exists: this.o.archivedBefore() > 0 });
  }

  /**
   * Records that just left the document for the server: still shown, now as earlier tasks (a member
   * watching the list does not see them vanish when the server moves them).
   */
  keep(entries: readonly HistoryEntry[]): void {
    for (const e of entries) this.kept.set(e.taskId, e);
    this.refresh();
    this.update({ loaded: this.kept.size });
  }

  /** Reads the next page of earlier tasks (once at a time); resolves when it is in the list. */
  async loadMore(): Promise<void> {
    const s = this.snapshot();
    if (s.status === 'loading' || s.status === 'done' || this.next === null) return;
    this.update({ status: 'loading', error: null });
    const next = await this.pageBefore(this.next);
    if (next === undefined) return this.update({ status: 'error' });
    this.next = next;
    this.update({ status: next === null ? 'done' : 'idle' });
  }

  /**
   * The earlier tasks of a stretch of time, read from its end (the Gallery's dates): the same list, the
   * same search, its own place and end. One reader per range, kept.
   */
  within(range: EarlierRange): EarlierReader {
    if (range.until === undefined && range.since === undefined) return this;
    const key = `${range.until ?? ''}|${range.since ?? ''}`;
    let reader = this.ranges.get(key);
    if (!reader) {
      reader = new RangeReader(this, range);
      this.ranges.set(key, reader);
    }
    return reader;
  }

  /**
   * Reads the page before `cursor` (the newest page without one) into the list. Answers the next
   * cursor: null at the history's end or once past `since`; undefined when the read failed.
   * @internal
   */
  async pageBefore(cursor: string | undefined, since?: number): Promise<string | null | undefined> {
    this.update({ error: null });
    const answer = await this.read(cursor ? { before: cursor } : {});
    if (!answer) return undefined;
    this.add(answer);
    const last = answer.tasks.at(-1) as { createdAt?: unknown } | undefined;
    const past = since !== undefined && typeof last?.createdAt === 'number' && last.createdAt < since;
    return past ? null : answer.next;
  }

  /** Asks the server for every earlier task matching the search (its first page): they join the list. */
  async search(query: string): Promise<void> {
    const q = query.trim();
    if (!q || this.searched.has(q) || !this.snapshot().exists) return;
    this.searched.add(q);
    this.update({ searching: true, error: null });
    const answer = await this.read({ q, limit: String(MAX_PAGE) });
    if (!answer) this.searched.delete(q);
    else this.add(answer);
    this.update({ searching: false });
  }

  /** The team's tasks per month and member, as the server sums them (Usage). */
  async months(): Promise<MonthSummary[] | null> {
    const res = await this.get(TEAM_HISTORY_ROUTES.months, {});
    if (!res) return null;
    const parsed = MonthsAnswer.safeParse(await res.json().catch(() => null));
    return parsed.success ? parsed.data.months : null;
  }

  close(): void {
    this.closed = true;
  }

  private async read(params: Record<string, string>) {
    const res = await this.get(TEAM_HISTORY_ROUTES.tasks, { limit: String(PAGE), ...params });
    if (!res) return null;
    const parsed = HistoryPageAnswer.safeParse(await res.json().catch(() => null));
    if (!parsed.success) {
      this.update({ error: 'unreachable' });
      return null;
    }
    return parsed.data;
  }

  private async get(route: string, params: Record<string, string>): Promise<Response | null> {
    const url = `${this.o.baseUrl}${route}?${new URLSearchParams(params).toString()}`;
    try {
      const res = await (this.o.fetch ?? fetch)(url, {
        headers: { Authorization: `Bearer ${this.o.token()}` },
        cache: 'no-store',
      });
      if (this.closed) return null;
      if (res.ok) return res;
      this.update({
        error:
          res.status === 401 || res.status === 403 ? 'refused' : res.status === 429 ? 'busy' : 'unreachable',
      });
      return null;
    } catch {
      if (!this.closed) this.update({ error: 'unreachable' });
      return null;
    }
  }

  /**
   * A page from the server: its records each read as the document's are (the contract, then the studio's
   * schema); what was said about them to EarlierSaid, whose readers parse it alike.
   */
  private add(answer: { tasks: readonly unknown[]; attached: readonly TaskAttachments[] }): void {
    this.o.said?.add(answer.attached);
    const entries: HistoryEntry[] = [];
    for (const raw of answer.tasks) {
      const id = (raw as { taskId?: unknown } | null)?.taskId;
      if (typeof id !== 'string' || !acceptedRecord('tasks', id, raw)) continue;
      const parsed = TeamTaskSchema.safeParse(raw);
      if (!parsed.success || this.kept.has(id)) continue;
      const task = parsed.data;
      const entry = fromTeamTask(task, this.o.nameOf(task.by), this.o.history.connectionId, this.o.memberId);
      this.kept.set(id, entry);
      entries.push(entry);
    }
    if (entries.length > 0) changeTeamEntries(this.o.history, entries, []);
    this.update({ loaded: this.kept.size });
  }

  private update(patch: Partial<EarlierState>): void {
    if (this.closed) return;
    const now = this.snapshot();
    if (Object.entries(patch).every(([k, v]) => now[k as keyof EarlierState] === v)) return;
    this.state.set({ ...now, ...patch });
  }
}

/** One stretch of the team's earlier tasks read from its own end (TeamArchive.within). */
class RangeReader implements EarlierReader {
  private next: string | null | undefined;
  private status: EarlierState['status'] = 'idle';
  private readonly listeners = new Listeners();
  private view: EarlierState | null = null;
  private base: EarlierState | null = null;

  constructor(
    private readonly archive: TeamArchive,
    private readonly range: EarlierRange,
  ) {
    this.next = range.until === undefined ? undefined : cursorBefore(range.until);
  }

  subscribe = (listener: () => void): (() => void) => {
    const a = this.archive.subscribe(listener);
    const b = this.listeners.subscribe(listener);
    return () => {
      a();
      b();
    };
  };

  /** The archive's state with this range's own status (the same object until either changes). */
  snapshot = (): EarlierState => {
    const base = this.archive.snapshot();
    if (!this.view || this.view.status !== this.status || this.base !== base) {
      this.base = base;
      this.view = { ...base, status: this.status };
    }
    return this.view;
  };

  async loadMore(): Promise<void> {
    if (this.status === 'loading' || this.status === 'done' || this.next === null) return;
    this.set('loading');
    const next = await this.archive.pageBefore(this.next, this.range.since);
    if (next === undefined) return this.set('error');
    this.next = next;
    this.set(next === null ? 'done' : 'idle');
  }

  search = (query: string): Promise<void> => this.archive.search(query);

  private set(status: EarlierState['status']): void {
    this.status = status;
    this.listeners.notify();
  }
}
