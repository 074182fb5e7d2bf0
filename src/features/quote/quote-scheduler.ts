import type { ApiError } from '../../api/errors';
import { requestKey } from '../../api/queries/quote-queries';
import { toApiError } from '../../api/errors';
import type { Quote } from '../../../contract/quote';
import type { TaskRequest } from '../../../contract/task';

// The live quote's timing rules (product-notes §3, Live quote): debounced, at most one POST /quote in flight,
// an older answer never replaces a newer one, and while the payload has changed the last price stays,
// marked stale. Kept out of React Query on purpose: this is a single-flight, debounced stream of one
// value, and its rules are easier to state and test as a small scheduler with injectable timers.

export interface QuoteState {
  quote: Quote | null;
  /** The quote shown is not for the current payload (yet). */
  stale: boolean;
  loading: boolean;
  error: ApiError | null;
}

export interface QuoteSchedulerOptions {
  debounceMs?: number;
  fetchQuote: (request: TaskRequest, signal: AbortSignal) => Promise<Quote>;
  onChange: (state: QuoteState) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

// Long enough that typing at a normal pace (8 keys a second, or slower on a busy machine) sends one request.
const QUOTE_DEBOUNCE_MS = 750;

export class QuoteScheduler {
  private state: QuoteState = { quote: null, stale: false, loading: false, error: null };
  private latest: { key: string; request: TaskRequest } | null = null;
  private shownKey: string | null = null;
  private timer: unknown;
  private inFlight: { key: string; controller: AbortController } | null = null;
  private readonly debounceMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: QuoteSchedulerOptions) {
    this.debounceMs = options.debounceMs ?? QUOTE_DEBOUNCE_MS;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** The current payload; null when the form is invalid (nothing is quoted, the last price goes stale). */
  update(request: TaskRequest | null): void {
    const key = request ? requestKey(request) : null;
    if (key === (this.latest?.key ?? null)) return;
    this.latest = request && key ? { key, request } : null;
    this.clearTimer(this.timer);
    this.timer = undefined;
    if (!this.latest) {
      this.set({ stale: this.state.quote !== null, error: null });
      return;
    }
    this.set({ stale: this.shownKey !== key, error: null });
    if (this.shownKey === key) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.send();
    }, this.debounceMs);
  }

  dispose(): void {
    this.clearTimer(this.timer);
    this.inFlight?.controller.abort();
    this.inFlight = null;
  }

  private send(): void {
    // One request at a time: a newer payload waits for the answer in flight, then goes.
    if (this.inFlight || !this.latest || this.latest.key === this.shownKey) return;
    const { key, request } = this.latest;
    const controller = new AbortController();
    this.inFlight = { key, controller };
    this.set({ loading: true });
    this.options.fetchQuote(request, controller.signal).then(
      (quote) => this.settle(key, { quote }),
      (err: unknown) => this.settle(key, { error: toApiError(err) }),
    );
  }

  private settle(key: string, result: { quote?: Quote; error?: ApiError }): void {
    if (this.inFlight?.key !== key) return; // disposed
    this.inFlight = null;
    const current = this.latest?.key === key;
    if (result.quote) {
      // Requests go one at a time, so this answer is newer than the one shown: show it, stale if the
      // payload moved on meanwhile.
      this.shownKey = key;
      this.set({ quote: result.quote, stale: !current, loading: false, error: null });
    } else {
      this.set({ loading: false, error: current ? (result.error ?? null) : null });
    }
    if (!current && this.timer === undefined) this.send();
  }

  private set(patch: Partial<QuoteState>): void {
    this.state = { ...this.state, ...patch };
    this.options.onChange(this.state);
  }
}
