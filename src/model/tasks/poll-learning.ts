import { z } from 'zod/mini';
import type { Me } from '../../../contract/me';
import { DEFAULT_CONCURRENCY, type LearnedState } from './poll-schedule';

// Where the poll schedule starts from (api-notes §8, concurrency): what GET /me says of the key, then what
// earlier sessions of the same connection learned (kept in localStorage under the connection id, a hash of
// base URL and key, never the key itself).

/**
 * The first guess of how many of this key's tasks run at once. GET /me carries no concurrency figure
 * (api-notes §2); it says which kind of key this is (api-notes §8):
 * - a personal key (`user`): the user's setting, default 3. Taken as the limit: no probe is spent on
 *   a fourth slot; a task seen running beside three others still raises it.
 * - a team key (`team`): a pool shared by the team, of a size no answer states: 3 to start from, and
 *   the head of the queue is probed for one more slot until a task is seen waiting.
 */
export function concurrencyPrior(me: Pick<Me, 'user' | 'team'>): { concurrency: number; confirmed: boolean } {
  return me.team
    ? { concurrency: DEFAULT_CONCURRENCY, confirmed: false }
    : { concurrency: DEFAULT_CONCURRENCY, confirmed: true };
}

const STORAGE_PREFIX = 'media-studio:poll-learning:';
const Samples = z.record(z.string(), z.array(z.number().check(z.positive())));
const LearnedSchema = z.object({
  concurrency: z.int().check(z.positive()),
  confirmed: z.boolean(),
  runSamples: Samples,
  latencySamples: Samples,
});

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const defaultStorage = (): KeyValueStorage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: nothing is kept
  }
};

/** What earlier sessions of this connection learned, or null (none, or unreadable). */
export function loadLearning(connectionId: string, storage = defaultStorage()): LearnedState | null {
  try {
    const raw = storage?.getItem(STORAGE_PREFIX + connectionId);
    if (!raw) return null;
    const parsed = LearnedSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps what was learned for the next session of this connection. */
export function saveLearning(connectionId: string, state: LearnedState, storage = defaultStorage()): void {
  try {
    storage?.setItem(STORAGE_PREFIX + connectionId, JSON.stringify(state));
  } catch {
    // Full or disabled storage: the next session learns again.
  }
}
