import { z } from 'zod/mini';
import type { PoolShare } from '../queue/queue';
import type { TeamContext } from './team-doc';

// The team's queue (docs/queue.md, "Teams"): each member's studio says in its presence (awareness, gone
// when it leaves) how many tasks it holds back. The others read it to keep to their fair share of the
// team's pool while someone else waits, and the team's queue shows it by member. Untrusted, like all
// presence: parsed, and a member is the id the server stamped when there is one.

const MAX_HELD = 100_000;

const QueuePresenceSchema = z.object({
  memberId: z.optional(z.string().check(z.minLength(1))),
  member: z.optional(z.object({ id: z.string().check(z.minLength(1)) })),
  queue: z.object({
    held: z.int().check(z.nonnegative(), z.maximum(MAX_HELD)),
    /** Of those, how many would go as soon as the pool had room; an older studio says only `held`. */
    waiting: z.optional(z.int().check(z.nonnegative(), z.maximum(MAX_HELD))),
  }),
});

export interface HeldByMember {
  memberId: string;
  /** Tasks held, over all the member's devices online now (the team's queue shows it). */
  held: number;
  /** Of those, the ones waiting for the pool (not paused, not blocked): what the fair share counts. */
  waiting: number;
  you: boolean;
}

const bounded = (n: number) => Math.max(0, Math.min(MAX_HELD, Math.trunc(n)));

/**
 * Tells the room how many tasks this device holds (TaskQueue.heldForTeam: shown by member in the team's
 * queue) and how many of them would go as soon as the pool had room (TaskQueue.waitingForPool: a paused
 * or blocked task waits for its member, not for the pool, so it takes no share of the pool).
 */
export function publishHeld(team: TeamContext, { held, waiting }: { held: number; waiting: number }): void {
  team.awareness.setLocalStateField('queue', {
    held: bounded(held),
    waiting: bounded(Math.min(waiting, held)),
  });
}

/** What each member online holds, most first; members holding nothing are left out. */
export function heldByMember(team: TeamContext): HeldByMember[] {
  const byMember = new Map<string, { held: number; waiting: number }>();
  for (const state of team.awareness.getStates().values()) {
    const parsed = QueuePresenceSchema.safeParse(state);
    if (!parsed.success || parsed.data.queue.held === 0) continue;
    const id = parsed.data.memberId ?? parsed.data.member?.id;
    if (!id) continue;
    const { held, waiting = held } = parsed.data.queue;
    const sum = byMember.get(id) ?? { held: 0, waiting: 0 };
    byMember.set(id, { held: sum.held + held, waiting: sum.waiting + Math.min(waiting, held) });
  }
  return [...byMember]
    .map(([memberId, { held, waiting }]) => ({ memberId, held, waiting, you: memberId === team.memberId }))
    .sort((a, b) => b.held - a.held || a.memberId.localeCompare(b.memberId));
}

/** Member ids in one order every studio agrees on (code units, not the locale's collation). */
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * How the pool is shared now: how many other members hold tasks waiting for it, and this member's place
 * among all of them, itself included, by member id (slotsToFill gives the pool's remainder to the first).
 */
export function poolShare(team: TeamContext): PoolShare {
  const others = heldByMember(team)
    .filter((m) => !m.you && m.waiting > 0)
    .map((m) => m.memberId);
  const ranked = [...others, team.memberId].sort(byId);
  return { othersWaiting: others.length, rank: ranked.indexOf(team.memberId) };
}

/** Calls `listener` when any member's presence changes (what they hold among it); returns the undo. */
export function onPresence(team: TeamContext, listener: () => void): () => void {
  team.awareness.on('change', listener);
  return () => team.awareness.off('change', listener);
}
