import type { Me } from '../../../contract/me';

// What the account panel and the header read off GET /me: whose balance it is, and how long the key lasts.

const DAY = 86_400_000;

/** Whole days left before the key expires, or null when it never does. */
export function daysLeft(expiresAt: string | null, now = Date.now()): number | null {
  if (!expiresAt) return null;
  return Math.max(0, Math.floor((Date.parse(expiresAt) - now) / DAY));
}

/** The balance that pays for this key's tasks: the team's for a team key, else the user's. */
export function balanceOf(me: Me): { amount: number; owner: 'personal' | 'team' } | null {
  if (me.team) return { amount: me.team.creditBalance, owner: 'team' };
  if (me.user) return { amount: me.user.creditBalance, owner: 'personal' };
  return null;
}

/** The key's project was deleted: it can no longer create tasks or uploads. */
export const isUnbound = (me: Me): boolean => me.project.bound === false || me.project.id === null;
