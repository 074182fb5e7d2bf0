import { z } from 'zod/mini';
import type * as Y from 'yjs';
import { isTerminal } from '../../../contract/task';
import { acceptedRecord, outOfBounds, TeamDocValues } from '../../../contract/team-doc';
import { archivedBeforeOf } from '../../../contract/team-history';
import type { HistoryStore } from '../history/history-store';
import { HistoryEntrySchema, type HistoryEntry } from '../history/history-types';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { OPEN_GATE, ownerNow, plainJson, sizeOf, type ShareGate } from './team-share';
import { Listeners } from '../../lib/store';

// The team history (docs/team-space.md, root `tasks`): every task a member submits through the studio,
// as the team sees it: the request (never the key: requests carry none), what ran, its status, outputs,
// credits and timings, and who made it. The API lists no tasks, so this is how a team sees what its
// shared pool is busy with. Each record is written by the studio that made the task (its maker polls it
// and shares what each poll shows); the others show it and never poll it.

// What stays on the device that made a task: its connection (a hash of that device's key), the raw
// answer of its last poll, its unseen mark.
const { connectionId: _connection, raw: _raw, unseen: _unseen, ...shared } = HistoryEntrySchema.shape;

/** A record of the document: a history entry without what stays on the device that made it. */
export const TeamTaskSchema = z.object({
  ...shared,
  /** The member (key id) who made it. */
  by: z.string().check(z.minLength(1)),
});
export type TeamTask = z.infer<typeof TeamTaskSchema>;

/**
 * What of an entry travels: not its connection (a hash of this device's key), its raw answer or unseen mark.
 * @internal
 */
export function toTeamTask(entry: HistoryEntry, memberId: string): Record<string, unknown> {
  // As JSON: an entry's absent fields (error, completedAt) are not written as undefined.
  return plainJson({
    taskId: entry.taskId,
    by: memberId,
    request: entry.request,
    meta: entry.meta,
    status: entry.status,
    outputs: entry.outputs,
    error: entry.error,
    creditsCharged: entry.creditsCharged,
    createdAt: entry.createdAt,
    completedAt: entry.completedAt,
    ...(entry.idempotencyKey ? { idempotencyKey: entry.idempotencyKey } : {}),
  });
}

/**
 * A record of the document as this device's history shows it: named by its member (a task this member
 * made on another of their devices is theirs, with no name), never polled here.
 */
export function fromTeamTask(
  task: TeamTask,
  name: string,
  connectionId: string,
  self?: string,
): HistoryEntry {
  const { by, ...rest } = task;
  return { ...rest, connectionId, ...(by === self ? {} : { by: { id: by, name } }), unseen: false };
}

/** What two copies of a record must share to be the same news. */
const signature = (
  t: Pick<HistoryEntry, 'status' | 'outputs' | 'creditsCharged' | 'completedAt' | 'createdAt'>,
) => `${t.status}|${t.createdAt}|${t.completedAt}|${t.outputs.length}|${t.creditsCharged}`;

export class TeamTasks {
  private readonly map: Y.Map<unknown>;
  private readonly listeners = new Listeners<[changed: ReadonlySet<string>]>();
  private parsed = new Map<string, TeamTask>();
  /** The snapshot handed out, made again only when read after a change (a big room changes often). */
  private view: ReadonlyMap<string, TeamTask> | null = null;
  readonly memberId: string;
  /** This member's tasks taken out of the team (Free space): never shared again from this device. */
  private readonly withdrawn: Set<string>;
  /** Holds open (hold()), and the ids changed meanwhile, told when the last is released. */
  private holds = 0;
  private heldChanges = new Set<string>();

  constructor(
    private readonly team: TeamContext,
    private readonly gate: ShareGate = OPEN_GATE,
    withdrawn: Iterable<string> = [],
  ) {
    this.withdrawn = new Set(withdrawn);
    this.map = rootMap(team.doc, ROOTS.tasks);
    this.memberId = team.memberId;
    for (const [id, raw] of this.map.entries()) this.take(id, raw);
    this.map.observe(this.onChange);
  }

  private take(id: string, raw: unknown): void {
    // The contract's shape and owner first (what the server takes), then the studio's own reading.
    const parsed = acceptedRecord('tasks', id, raw) ? TeamTaskSchema.safeParse(raw) : null;
    // A record must be filed under its own task id: one that is not, or does not parse, is skipped.
    if (parsed?.success && parsed.data.taskId === id) this.parsed.set(id, parsed.data);
    else this.parsed.delete(id);
  }

  private onChange = (event: Y.YMapEvent<unknown>): void => {
    for (const id of event.keysChanged) this.take(id, this.map.get(id));
    this.view = null;
    if (this.holds === 0) this.listeners.notify(event.keysChanged);
    else for (const id of event.keysChanged) this.heldChanges.add(id);
  };

  /**
   * Holds the listeners' news until the answered release: a burst of changes (the room read in pieces,
   * team-preload.ts) is told once, as one change, so the history and its list follow once, not per piece.
   * Reads (snapshot, get) stay current meanwhile.
   */
  hold(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds > 0 || this.heldChanges.size === 0) return;
      const changed = this.heldChanges;
      this.heldChanges = new Set();
      this.listeners.notify(changed);
    };
  }

  /** Told of each change with the task ids it touched (a record added, changed or gone). */
  subscribe = this.listeners.subscribe;

  /** Every readable record, by task id (a new Map after each change). */
  snapshot = (): ReadonlyMap<string, TeamTask> => (this.view ??= new Map(this.parsed));

  /** One record, or undefined (absent, or unreadable). */
  get(taskId: string): TeamTask | undefined {
    return this.parsed.get(taskId);
  }

  /**
   * The server's watermark (team-history.ts): every finished task made before it has left the document
   * for the server's store. 0 while none has.
   */
  archivedBefore(): number {
    return archivedBeforeOf(this.team.doc);
  }

  /** Tasks of this member's taken out of the team: they stay out (the device's history keeps them). */
  withdraw(taskIds: Iterable<string>): void {
    for (const id of taskIds) this.withdrawn.add(id);
  }

  /** Puts withdrawn tasks back among those shared (an Undo of Free space). */
  restore(taskIds: Iterable<string>): void {
    for (const id of taskIds) this.withdrawn.delete(id);
  }

  /**
   * Shares this member's entries (one transaction): each one the document lacks, or holds at an earlier
   * state. A record already finished is never taken back to an unfinished state. Never writes what the
   * server would refuse (contract/team-doc.ts), which would refuse the whole transaction: a record under
   * that id that is not this member's (even one this studio cannot read), a value out of the contract's
   * bounds, or past this member's share of the room. Answers how many were written.
   */
  share(entries: readonly HistoryEntry[]): number {
    const writes: Array<[string, Record<string, unknown>]> = [];
    let bytes = 0;
    const archivedBefore = this.archivedBefore();
    for (const entry of entries) {
      if (entry.by) continue; // another member's: not ours to write
      if (this.withdrawn.has(entry.taskId)) continue;
      const owner = ownerNow(this.team.doc, ROOTS.tasks, entry.taskId);
      if (owner !== undefined && owner !== this.team.memberId) continue;
      const there = this.parsed.get(entry.taskId);
      // Finished before the watermark and not in the document: the server moved it to its store.
      if (!there && owner === undefined && isTerminal(entry.status) && entry.createdAt < archivedBefore)
        continue;
      if (there && isTerminal(there.status) && !isTerminal(entry.status)) continue;
      if (there && signature(there) === signature(entry)) continue;
      const value = toTeamTask(entry, this.team.memberId);
      if (outOfBounds(value) || !TeamDocValues.task.safeParse(value).success) continue;
      const size = sizeOf(entry.taskId, value);
      if (!this.gate.allows(bytes + size)) continue;
      bytes += size;
      writes.push([entry.taskId, value]);
    }
    if (writes.length === 0) return 0;
    this.team.transact(() => {
      for (const [id, value] of writes) this.map.set(id, value);
    });
    return writes.length;
  }

  destroy(): void {
    this.map.unobserve(this.onChange);
  }
}

/**
 * The team's tasks in this history, in place of those given before (one notification). An entry this
 * device has of its own is its own, whatever the team's copy says.
 * @internal
 */
export function setTeamEntries(history: HistoryStore, entries: readonly HistoryEntry[]): void {
  if (entries.length === 0 && history.team.size === 0) return;
  history.team.clear();
  for (const e of entries) if (!history.isLocal(e.taskId)) history.team.set(e.taskId, e);
  history.teamChanged();
}

/**
 * Some of the team's tasks changed (added or updated) and some left; the rest stay as they are. The
 * same tasks at the same times keep the list's order without a sort.
 */
export function changeTeamEntries(
  history: HistoryStore,
  upserts: readonly HistoryEntry[],
  removed: readonly string[],
): void {
  let resort = removed.length > 0;
  const replaced = new Map<string, HistoryEntry>();
  for (const e of upserts) {
    if (history.isLocal(e.taskId)) continue;
    const before = history.team.get(e.taskId);
    if (!before || before.createdAt !== e.createdAt) resort = true;
    else replaced.set(e.taskId, e);
    history.team.set(e.taskId, e);
  }
  for (const id of removed) history.team.delete(id);
  if (resort) history.teamChanged();
  else if (replaced.size > 0) history.teamChanged(replaced);
}

/**
 * This member's own unfinished task that this device's history lacks (made on another device, or before
 * this browser's storage was cleared) is taken into it this long after it was made: this device then
 * polls it with the member's key and shares what it finds. Before that, the device that made it is
 * likely still following it (both polling costs only the key's budget).
 * @internal
 */
export const ADOPT_AFTER_MS = 2 * 60_000;
/**
 * Another member's unfinished task counts as followed while the member has a device in the room, or
 * until this long after it was made: then nobody is polling it (the member left, or cleared their
 * storage and has not come back), and it is shown as unfollowed, out of the team queue and the
 * forecasts, until its maker's studio comes back and shares its end.
 * @internal
 */
export const UNFOLLOWED_AFTER_MS = 15 * 60_000;
/** How often the unfinished records are looked at again for the two rules above. */
const RECHECK_MS = 60_000;

/** Whether another member's record is one nobody follows any more (UNFOLLOWED_AFTER_MS). */
function isUnfollowed(task: TeamTask, now: number, makerOnline: boolean): boolean {
  return !isTerminal(task.status) && !makerOnline && now - task.createdAt > UNFOLLOWED_AFTER_MS;
}

export interface HistoryBridgeOptions {
  /** Own tasks created from this time on are shared as they come; older ones only by shareEarlier(). */
  sharedSince: number;
  nameOf: (memberId: string) => string;
  /** Told when the member list changes, so the names shown follow a rename. */
  onNames?: (listener: () => void) => () => void;
  /** Whether a member has a device in the room now (default: nobody but this one). */
  isOnline?: (memberId: string) => boolean;
  now?: () => number;
  /**
   * The team's earlier tasks read from the server (team-archive.ts): kept in the list when the document's
   * entries are set again, and given the records the server moves out of the document, which stay shown.
   */
  earlier?: { entries(): Iterable<HistoryEntry>; keep(entries: readonly HistoryEntry[]): void };
}

/**
 * Keeps this device's history and the team's in step, both ways: own entries (created since the member
 * turned the team space on) go into the document as they change, and the team's records that this
 * history lacks are shown in it as entries `by` their member (HistoryStore.setTeamEntries: kept in
 * memory, never written to this device's history, never polled here). Answers the way to stop, and a way
 * to share the earlier entries when the member says so.
 */
export function bridgeHistory(
  history: HistoryStore,
  tasks: TeamTasks,
  {
    sharedSince,
    nameOf,
    onNames,
    isOnline = () => false,
    now = () => Date.now(),
    earlier,
  }: HistoryBridgeOptions,
): {
  stop: () => void;
  earlier: () => HistoryEntry[];
  shareEarlier: () => number;
  /** Looks at the unfinished records again (time alone may make one adoptable, or unfollowed). */
  recheck: () => void;
} {
  let since = sharedSince;
  const own = () => history.localList();
  /** This member's tasks taken in from the team (ADOPT_AFTER_MS): shared back whatever their age. */
  const adopted = new Set<string>();
  // Each change of an entry is a new object: only those not looked at yet are compared.
  let looked = new WeakSet<HistoryEntry>();
  const push = () => {
    const changed: HistoryEntry[] = [];
    for (const e of own()) {
      if (looked.has(e)) continue;
      looked.add(e);
      if (e.createdAt >= since || adopted.has(e.taskId)) changed.push(e);
    }
    return tasks.share(changed);
  };
  /** This member's own unfinished record that this history lacks, old enough: taken in and polled here. */
  const adopt = (task: TeamTask): boolean => {
    if (task.by !== tasks.memberId || isTerminal(task.status) || history.isLocal(task.taskId)) return false;
    if (now() - task.createdAt <= ADOPT_AFTER_MS || adopted.has(task.taskId)) return false;
    adopted.add(task.taskId);
    void history.put(fromTeamTask(task, '', history.connectionId, tasks.memberId));
    return true;
  };
  let pushQueued = false;
  const queuePush = () => {
    if (pushQueued) return;
    pushQueued = true;
    queueMicrotask(() => {
      pushQueued = false;
      push();
    });
  };
  // The team's records as this history shows them, by task id: kept between changes, so a change of a
  // few records costs a few entries, not the whole team history (a team of 10,000 tasks writes often).
  const shown = new Map<string, HistoryEntry>();
  const entryOf = (task: TeamTask) => {
    const entry = fromTeamTask(task, nameOf(task.by), history.connectionId, tasks.memberId);
    if (entry.by && isUnfollowed(task, now(), isOnline(task.by)))
      entry.by = { ...entry.by, unfollowed: true };
    return entry;
  };
  let pending: Set<string> | 'all' = 'all';
  let pullQueued = false;
  const pull = () => {
    pullQueued = false;
    const changed = pending;
    pending = new Set();
    if (changed === 'all') {
      shown.clear();
      for (const task of tasks.snapshot().values()) {
        if (!adopt(task)) shown.set(task.taskId, entryOf(task));
      }
      const before = [...(earlier?.entries() ?? [])].filter((e) => !shown.has(e.taskId));
      setTeamEntries(history, [...shown.values(), ...before]);
      return;
    }
    const upserts: HistoryEntry[] = [];
    const removed: string[] = [];
    const moved: HistoryEntry[] = [];
    const archivedBefore = tasks.archivedBefore();
    /** A record the server moved to its store (finished, before the watermark): still shown, as earlier. */
    const wasMoved = (e: HistoryEntry | undefined): e is HistoryEntry =>
      !!earlier && !!e && isTerminal(e.status) && e.createdAt < archivedBefore;
    for (const id of changed) {
      const task = tasks.get(id);
      if (task && adopt(task)) {
        if (shown.delete(id)) removed.push(id);
      } else if (task) {
        const entry = entryOf(task);
        shown.set(id, entry);
        upserts.push(entry);
      } else {
        const gone = shown.get(id);
        if (!shown.delete(id)) continue;
        if (wasMoved(gone)) moved.push(gone);
        else removed.push(id);
      }
    }
    if (moved.length > 0) earlier!.keep(moved);
    changeTeamEntries(history, upserts, removed);
  };
  const queuePull = (changed: ReadonlySet<string> | 'all') => {
    if (changed === 'all' || pending === 'all') pending = 'all';
    else for (const id of changed) pending.add(id);
    if (pullQueued) return;
    pullQueued = true;
    queueMicrotask(pull);
  };
  push();
  pull();
  const offHistory = history.subscribe(queuePush);
  const offTasks = tasks.subscribe(queuePull);
  // A rename shows on every task of its member; a member coming or going changes who follows what.
  const offNames = onNames?.(() => queuePull('all')) ?? (() => undefined);
  // Time alone makes a record old enough to adopt, or unfollowed: the unfinished ones are looked at again.
  const recheck = () => {
    const unfinished = new Set<string>();
    for (const task of tasks.snapshot().values()) if (!isTerminal(task.status)) unfinished.add(task.taskId);
    if (unfinished.size > 0) queuePull(unfinished);
  };
  const timer = setInterval(recheck, RECHECK_MS);
  return {
    recheck,
    stop: () => {
      clearInterval(timer);
      offHistory();
      offTasks();
      offNames();
      setTeamEntries(history, []);
    },
    earlier: () => own().filter((e) => e.createdAt < since),
    shareEarlier: () => {
      since = -Infinity;
      looked = new WeakSet();
      return push();
    },
  };
}
