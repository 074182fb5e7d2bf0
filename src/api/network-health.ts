import type { ApiError } from './errors';
import { Listeners } from '../lib/store';

// How the service is answering right now, as the client sees it, for one line the whole studio shows
// while it recovers, so nobody takes a slow or absent service for a broken studio. The client reports every
// attempt; this module keeps no React and no timers of its own: the view asks for the state at a given time.
//
// - unreachable: the last attempt got no HTTP answer (connection refused, dropped, timed out);
// - failing: the last answer was a 502/503/504 (api-notes §7 retries those too);
// - rate-limited: a 429 asked us to wait (Retry-After);
// - slow: a request has been out longer than SLOW_AFTER_MS and nothing has failed;
// - recovered: an answer arrived after trouble, shown for RECOVERED_FOR_MS;
// - ok.
// Any other answer (2xx, and 4xx refusals, which are the service speaking) ends the trouble.

/** @internal */
export const SLOW_AFTER_MS = 5_000;
/** @internal */
export const RECOVERED_FOR_MS = 5_000;

export type HealthState =
  | { kind: 'ok' }
  | { kind: 'slow'; since: number }
  | {
      kind: 'unreachable' | 'failing';
      since: number;
      status: number;
      /** When the client's next automatic retry goes out (api-notes §7), if one is scheduled. */
      retryAt: number | null;
    }
  | { kind: 'rate-limited'; until: number }
  | { kind: 'recovered'; at: number };

type Trouble = Extract<HealthState, { kind: 'unreachable' | 'failing' | 'rate-limited' }>;

/** What one attempt came to, by the error it ended with (undefined: an answer that ends trouble). */
function troubleOf(error: ApiError | undefined, now: number): Trouble | null {
  if (!error || error.code === 'aborted') return null;
  if (error.status === 0) return { kind: 'unreachable', since: now, status: 0, retryAt: null };
  if (error.status === 502 || error.status === 503 || error.status === 504)
    return { kind: 'failing', since: now, status: error.status, retryAt: null };
  if (error.status === 429 && error.code === 'rate_limited')
    return { kind: 'rate-limited', until: now + (error.retryAfterSeconds ?? 1) * 1000 };
  return null;
}

export class NetworkHealth {
  private readonly now: () => number;
  private trouble: Trouble | null = null;
  private recoveredAt: number | null = null;
  /** Requests out right now that count for "slow" (not uploads), by token: when each left. */
  private readonly inFlight = new Map<number, number>();
  private seq = 0;
  private readonly listeners = new Listeners();
  private readonly recoveryListeners = new Listeners();

  constructor({ now = () => Date.now() }: { now?: () => number } = {}) {
    this.now = now;
  }

  subscribe = this.listeners.subscribe;

  /** Called once each time the service answers again after trouble (re-send what waits, poll now). */
  onRecovered(listener: () => void): () => void {
    return this.recoveryListeners.subscribe(listener);
  }

  /** A request left (after the rate limiter let it go). Answers the token to pass to `ended`. */
  started({ countsAsSlow = true }: { countsAsSlow?: boolean } = {}): number {
    const token = ++this.seq;
    if (countsAsSlow) {
      this.inFlight.set(token, this.now());
      this.changed();
    }
    return token;
  }

  /** The attempt `token` ended: with no error (an answer), or with the ApiError it became. */
  ended(token: number, error?: ApiError): void {
    const wasOut = this.inFlight.delete(token);
    if (error?.code === 'aborted') {
      if (wasOut) this.changed();
      return;
    }
    const now = this.now();
    const next = troubleOf(error, now);
    const previous = this.trouble;
    if (next) {
      // The same trouble going on keeps the time it began.
      this.trouble =
        next.kind !== 'rate-limited' && previous?.kind === next.kind
          ? { ...next, since: previous.since }
          : next;
      this.recoveredAt = null;
    } else if (previous) {
      this.trouble = null;
      // A wait asked for by a 429 is not an outage: it ends quietly.
      if (previous.kind !== 'rate-limited') {
        this.recoveredAt = now;
        this.recoveryListeners.notify();
      }
    }
    this.changed();
  }

  /** The client will retry at `retryAt` (api-notes §7): shown as a countdown. */
  retrying(retryAt: number): void {
    if (this.trouble && this.trouble.kind !== 'rate-limited') {
      this.trouble = { ...this.trouble, retryAt };
      this.changed();
    }
  }

  /** The state to show at `now`. Pure in its inputs: call it again as time passes. */
  state(now: number = this.now()): HealthState {
    const trouble = this.trouble;
    if (trouble?.kind === 'rate-limited') {
      if (trouble.until > now) return trouble;
    } else if (trouble) {
      return trouble;
    }
    let oldest = Infinity;
    for (const at of this.inFlight.values()) oldest = Math.min(oldest, at);
    if (now - oldest >= SLOW_AFTER_MS) return { kind: 'slow', since: oldest };
    if (this.recoveredAt !== null && now - this.recoveredAt < RECOVERED_FOR_MS)
      return { kind: 'recovered', at: this.recoveredAt };
    return { kind: 'ok' };
  }

  private changed(): void {
    this.listeners.notify();
  }
}
