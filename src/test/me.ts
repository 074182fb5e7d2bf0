import type { Me } from '../../contract/me';

/** An account as GET /me answers it for a personal key, with `over` in place of its fields. */
export const sampleMe = (over: Partial<Me> = {}): Me => ({
  key: {
    id: 'k1',
    prefix: 'sk_live_ab',
    label: 'Laptop',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: null,
    dailyCreditCap: null,
    creditsSpentToday: 0,
    creditsRemainingToday: null,
  },
  project: { id: 'p1', name: 'Posters', bound: true },
  user: { creditBalance: 120 },
  limits: { tasksPerMin: 10, uploadsPerMin: 5, uploadPollPerMin: 60 },
  ...over,
});
