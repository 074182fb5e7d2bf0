import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { QueueItem, TaskQueue } from '../model/queue/queue';
import { heldByMember, onPresence, poolShare, publishHeld } from '../model/team/team-queue-share';
import type { TeamSession } from '../model/team/team-session';

// The queue and the team space (docs/queue.md, "Teams"): this device tells the room how many tasks it
// holds and how many of them wait for the pool (only the tab that releases them says it; the others say
// 0), and its queue keeps to a fair share of the team's pool while other members' tasks wait for it.

export function useQueueShare(session: TeamSession | null, queue: TaskQueue | null): void {
  useEffect(() => {
    if (!session || !queue) return;
    const space = session.space;
    let told = '';
    const tell = () => {
      const now = { held: queue.heldForTeam(), waiting: queue.waitingForPool() };
      const key = `${now.held}/${now.waiting}`;
      if (key === told) return;
      told = key;
      publishHeld(space, now);
    };
    tell();
    const offQueue = queue.subscribe(tell);
    queue.setPoolShare(() => poolShare(space));
    // Another member's queue emptied or filled: this one's share changed.
    const offPresence = onPresence(space, queue.kick);
    return () => {
      offQueue();
      offPresence();
      queue.setPoolShare(null);
      publishHeld(space, { held: 0, waiting: 0 });
    };
  }, [session, queue]);
}

export interface MemberHeld {
  name: string;
  held: number;
  you: boolean;
}

const NONE: readonly MemberHeld[] = [];
const noSubscribe = () => () => undefined;

/** What each member holds in their queue now, by name, for the team's queue. */
export function useTeamHeld(session: TeamSession | null): readonly MemberHeld[] {
  const store = useMemo(() => {
    if (!session) return null;
    let last: readonly MemberHeld[] = NONE;
    let key = '';
    return {
      subscribe: (listener: () => void) => onPresence(session.space, listener),
      snapshot: (): readonly MemberHeld[] => {
        const list = heldByMember(session.space).map((m) => ({
          name: session.members.nameOf(m.memberId),
          held: m.held,
          you: m.you,
        }));
        const next = JSON.stringify(list);
        if (next !== key) {
          key = next;
          last = list;
        }
        return last;
      },
    };
  }, [session]);
  return useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.snapshot ?? (() => NONE));
}

const NO_ITEMS = { items: [] as readonly QueueItem[] };
const noItems = () => NO_ITEMS;

/** The tasks held in this device's queue, in order (History and Gallery show them as held). */
export function useHeldTasks(queue: TaskQueue | null): readonly QueueItem[] {
  return useSyncExternalStore(queue?.subscribe ?? noSubscribe, queue?.snapshot ?? noItems).items;
}
