import { describe, expect, it } from 'vitest';
import { sampleMe } from '../../test/me';
import { balanceOf, daysLeft, isUnbound } from './account-facts';

const me = sampleMe;

describe('balanceOf', () => {
  it("is the team's balance for a team key and the user's otherwise", () => {
    expect(balanceOf(me())).toEqual({ amount: 120, owner: 'personal' });
    expect(balanceOf(me({ user: undefined, team: { id: 't1', creditBalance: 900 } }))).toEqual({
      amount: 900,
      owner: 'team',
    });
    expect(balanceOf(me({ user: undefined }))).toBeNull();
  });
});

describe('daysLeft', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('counts whole days before expiry, never below zero, and null for a key that never expires', () => {
    expect(daysLeft(null, now)).toBeNull();
    expect(daysLeft('2026-03-13T11:59:59Z', now)).toBe(2);
    expect(daysLeft('2026-03-13T12:00:00Z', now)).toBe(3);
    expect(daysLeft('2026-03-01T00:00:00Z', now)).toBe(0);
  });
});

describe('isUnbound', () => {
  it('is true once the project is deleted, whichever way the API says it', () => {
    expect(isUnbound(me())).toBe(false);
    expect(isUnbound(me({ project: { id: 'p1', name: 'Posters', bound: false } }))).toBe(true);
    expect(isUnbound(me({ project: { id: null, name: null } }))).toBe(true);
  });
});
