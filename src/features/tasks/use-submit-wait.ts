import { t } from '@lingui/core/macro';
import { useCallback, useSyncExternalStore } from 'react';
import { useOptionalApi } from '../../api/api-context';
import type { RateLimiter } from '../../api/rate-limiter';

// What a Generate click waits for when POST /tasks is at its per-minute limit (api-notes §8): the studio's
// rate limiter holds the request until the window has room, so the user is told why nothing is sent yet
// and when it will be, rather than seeing "Submitting…" for up to a minute.

interface SubmitWait {
  /** The key's POST /tasks limit per minute. */
  perMinute: number;
  /** When the waiting request goes, from now (ms). */
  inMs: number;
}

/** A request of POST /tasks waits in the limiter for the window: its limit and how long it waits. */
function submitWait(limiter: RateLimiter): SubmitWait | null {
  const perMinute = limiter.limitOf('tasks.create');
  if (perMinute === null || limiter.pending('tasks.create') === 0) return null;
  const inMs = limiter.waitMs('tasks.create');
  return inMs > 0 ? { perMinute, inMs } : null;
}

/**
 * "Waiting for the service's limit of 60 tasks a minute: sending in 12 s": whole seconds up to 10, then
 * in steps of 5 (a status region is read out on each change; once a second would be a stream of
 * announcements). One sentence, so a language can order it as it needs.
 * @internal
 */
export function submitWaitText(perMinute: number, ms: number): string {
  const whole = Math.max(1, Math.ceil(ms / 1000));
  const seconds = whole <= 10 ? whole : Math.ceil(whole / 5) * 5;
  return t`Waiting for the service's limit of ${perMinute} tasks a minute: sending in ${seconds} s`;
}

/**
 * While a submit is under way and held by the limit: "Waiting for the service's limit of 60 tasks a
 * minute: sending in 15 s" (null otherwise). Read from the limiter four times a second; the text is the
 * snapshot, so the bar renders only when it changes.
 */
export function useSubmitWaitText(busy: boolean): string | null {
  const limiter = useOptionalApi()?.client.limiter;
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!busy) return () => {};
      const id = setInterval(onChange, 250);
      return () => clearInterval(id);
    },
    [busy],
  );
  return useSyncExternalStore(subscribe, () => {
    const wait = busy && limiter ? submitWait(limiter) : null;
    return wait ? submitWaitText(wait.perMinute, wait.inMs) : null;
  });
}
