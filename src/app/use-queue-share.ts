import { useEffect, useMemo } from 'react';
import type { ConnectionRuntime } from '../model/connection-runtime';
import type { QueueItem, TaskQueue } from '../model/queue/queue';
import { heldByMember, onPresence } from '../model/team/team-queue-share';
import type { TeamSession } from '../model/team/team-session';
import { useOptionalStore } from '../lib/use-optional-store';

// The queue and the team space (docs/queue.md, "Teams"): while the team space is on, the connection
// runtime shares the pool with the team (ConnectionRuntime.linkTeam); the team's queue shows what each
// member holds, and History and Gallery what this device holds.

export function useQueueShare(session: TeamSession | null, runner: ConnectionRuntime | null): void {
  useEffect(() => (session && runner ? runner.linkTeam(session.space) : undefined), [session, runner]);
}

export interface MemberHeld {
  name: string;
  held: number;
  you: boolean;
}

const NONE: readonly MemberHeld[] = [];

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
  return useOptionalStore(store, NONE);
}

const NO_ITEMS = { items: [] as readonly QueueItem[] };

/** The tasks held in this device's queue, in order (History and Gallery show them as held). */
export function useHeldTasks(queue: TaskQueue | null): readonly QueueItem[] {
  return useOptionalStore(queue, NO_ITEMS).items;
}
