import type { TeamSpaceReason } from '../../../contract/team-room';
import { Listeners } from '../../lib/store';

// The team space while it is on, across refusals (docs/team-space.md): one session at a time. When the
// server refuses a change of this device's, whole (contract/team-room.ts CHANGE_REFUSALS), the refused
// update stays in this device's copy of the room: the provider would send it again at every reconnect,
// and every later edit of that Yjs client depends on it. So the session is closed with its copy dropped
// (its IndexedDB database deleted; the member's own stores on the device are untouched) and a new one
// joins afresh: a new Y.Doc, new stores, this member's own items shared again by the bridges. Never in
// a loop: refused again within `windowMs` of joining afresh, it stops there and says so.

/** What this needs of a session (TeamSession; tests fake it). */
export interface LiveSession {
  readonly connection: { onChangeRefused(listener: (reason: TeamSpaceReason) => void): () => void };
  start(): Promise<void>;
  close(options?: { dropCopy?: boolean }): Promise<void>;
}

export interface LiveState<S> {
  /** The open session; null while one opens (or after close). */
  session: S | null;
  /** Refused again soon after joining afresh: the studio stopped joining, with the server's reason. */
  stopped: TeamSpaceReason | null;
}

export type RefusalOutcome =
  /** The copy was dropped and the session joins again afresh. */
  | 'rejoining'
  /** Refused again within the window: no more attempts until the member turns the team space on again. */
  | 'stopped';

export interface TeamLiveOptions<S> {
  /** Makes a session (not started); `afresh` when the last copy was dropped. */
  open: (afresh: boolean) => S;
  /** Told of each refusal, to say why (a notice). */
  onRefusal?: (reason: TeamSpaceReason, outcome: RefusalOutcome) => void;
  now?: () => number;
  /** A refusal this soon after joining afresh stops the attempts (default 2 minutes). */
  windowMs?: number;
}

/** Two refusals within this time and the studio stops rejoining (docs/team-space.md). */
export const REFUSAL_WINDOW_MS = 2 * 60_000;

export class TeamLive<S extends LiveSession> {
  private state: LiveState<S> = { session: null, stopped: null };
  private readonly listeners = new Listeners();
  private latest: S | null = null;
  private offRefusal: () => void = () => undefined;
  private rejoinedAt = -Infinity;
  private closed = false;
  private readonly now: () => number;
  private readonly windowMs: number;

  constructor(private readonly options: TeamLiveOptions<S>) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? REFUSAL_WINDOW_MS;
  }

  subscribe = this.listeners.subscribe;

  snapshot = (): LiveState<S> => this.state;

  /** Opens the first session; resolves once it has read this device's copy. */
  start(): Promise<void> {
    return this.join(false);
  }

  private async join(afresh: boolean): Promise<void> {
    const session = this.options.open(afresh);
    this.latest = session;
    this.offRefusal = session.connection.onChangeRefused((reason) => void this.refused(session, reason));
    await session.start();
    if (this.closed || this.latest !== session) return;
    this.set({ session, stopped: null });
  }

  private async refused(session: S, reason: TeamSpaceReason): Promise<void> {
    if (this.closed || this.latest !== session) return;
    const now = this.now();
    if (now - this.rejoinedAt < this.windowMs) {
      // The fresh copy was refused too: what this device shares is refused whatever its copy. Stop.
      this.set({ session: this.state.session, stopped: reason });
      this.options.onRefusal?.(reason, 'stopped');
      return;
    }
    this.rejoinedAt = now;
    this.options.onRefusal?.(reason, 'rejoining');
    this.offRefusal();
    this.latest = null;
    this.set({ session: null, stopped: null });
    await session.close({ dropCopy: true });
    if (this.closed) return;
    await this.join(true);
  }

  private set(next: LiveState<S>): void {
    if (next.session === this.state.session && next.stopped === this.state.stopped) return;
    this.state = next;
    this.listeners.notify();
  }

  /** Closes the session (this device's copy kept). */
  async close(): Promise<void> {
    this.closed = true;
    this.offRefusal();
    const session = this.latest;
    this.latest = null;
    this.state = { session: null, stopped: null };
    this.listeners.clear();
    await session?.close();
  }
}
