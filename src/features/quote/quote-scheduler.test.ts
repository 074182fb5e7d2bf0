import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../../contract/quote';
import type { TaskRequest } from '../../../contract/task';
import { requestKey } from '../../api/queries/quote-queries';
import { QuoteScheduler, type QuoteState } from './quote-scheduler';

const req = (prompt: string): TaskRequest => ({ interfaceId: 'm', versionId: 'v', params: { prompt } });
const quote = (credits: number): Quote => ({
  credits,
  estimatedSeconds: null,
  modelId: 'm',
  versionId: 'v',
  modelName: 'M',
  breakdown: {
    pricingKey: 'k',
    base: credits,
    multiplier: 1,
    surcharges: 0,
    basePrice: 0,
    minPriceApplied: false,
  },
});

interface Call {
  request: TaskRequest;
  resolve: (q: Quote) => void;
  reject: (e: unknown) => void;
  signal: AbortSignal;
}

function setup(debounceMs = 500) {
  const calls: Call[] = [];
  const states: QuoteState[] = [];
  const scheduler = new QuoteScheduler({
    debounceMs,
    fetchQuote: (request, signal) =>
      new Promise<Quote>((resolve, reject) => calls.push({ request, resolve, reject, signal })),
    onChange: (s) => states.push(s),
  });
  const last = () => states[states.length - 1]!;
  return { scheduler, calls, last, states };
}

describe('QuoteScheduler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces: typing a 60-character prompt at 8 keys a second sends one request', async () => {
    const { scheduler, calls } = setup();
    let text = '';
    for (let i = 0; i < 60; i++) {
      text += 'a';
      scheduler.update(req(text));
      await vi.advanceTimersByTimeAsync(125);
    }
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.request.params.prompt).toBe(text);
  });

  it('keeps at most one request in flight and sends the newest payload after it', async () => {
    const { scheduler, calls, last } = setup();
    scheduler.update(req('a'));
    await vi.advanceTimersByTimeAsync(500);
    scheduler.update(req('ab'));
    await vi.advanceTimersByTimeAsync(500);
    scheduler.update(req('abc'));
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(1); // 'ab' and 'abc' wait for the answer to 'a'
    calls[0]!.resolve(quote(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ quote: { credits: 1 }, stale: true }); // shown, but not for 'abc'
    expect(calls).toHaveLength(2);
    expect(calls[1]!.request.params.prompt).toBe('abc'); // 'ab' was skipped
    calls[1]!.resolve(quote(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ quote: { credits: 3 }, stale: false, loading: false });
  });

  it('never lets an older answer replace a newer one, even when the older one arrives last', async () => {
    const { scheduler, calls, last, states } = setup();
    const price: Record<string, number> = { old: 9, new: 11 };
    scheduler.update(req('old'));
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(1);
    // The answer to 'old' is held back; the payload moves on, and its debounce runs out meanwhile.
    scheduler.update(req('new'));
    await vi.advanceTimersByTimeAsync(2_000);

    // Answers in the worst order: always the newest request first, the older ones late, each after
    // more time has passed. (The scheduler sends one at a time, so 'new' goes only after 'old' answered;
    // a scheduler that sent both would get 'new' answered first and 'old' after it.)
    const answered = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const pending = calls.map((c, i) => i).filter((i) => !answered.has(i));
      if (pending.length === 0) break;
      for (const i of pending.reverse()) {
        answered.add(i);
        calls[i]!.resolve(quote(price[calls[i]!.request.params.prompt as string]!));
        await vi.advanceTimersByTimeAsync(1_000);
      }
    }
    expect(answered.size, 'every request answered').toBe(calls.length);
    expect(calls.map((c) => c.request.params.prompt)).toEqual(['old', 'new']);
    expect(last()).toMatchObject({ quote: { credits: 11 }, stale: false, loading: false });
    // Once the newer price was shown as current, the older one never came back.
    const shownNew = states.findIndex((s) => s.quote?.credits === 11);
    expect(states.slice(shownNew).every((s) => s.quote?.credits === 11)).toBe(true);
    // And while it was the only price, the older one was never shown as the current payload's.
    expect(states.filter((s) => s.quote?.credits === 9 && s.loading === false).every((s) => s.stale)).toBe(
      true,
    );
  });

  it('marks the last price stale while the payload differs, and not when it comes back', async () => {
    const { scheduler, calls, last } = setup();
    scheduler.update(req('x'));
    await vi.advanceTimersByTimeAsync(500);
    calls[0]!.resolve(quote(5));
    await vi.advanceTimersByTimeAsync(0);
    scheduler.update(req('xy'));
    expect(last()).toMatchObject({ quote: { credits: 5 }, stale: true });
    scheduler.update(req('x'));
    expect(last()).toMatchObject({ stale: false });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1); // back to the quoted payload: nothing to ask
  });

  it('an invalid form (null) sends nothing and marks the price stale', async () => {
    const { scheduler, calls, last } = setup();
    scheduler.update(req('x'));
    await vi.advanceTimersByTimeAsync(500);
    calls[0]!.resolve(quote(5));
    await vi.advanceTimersByTimeAsync(0);
    scheduler.update(null);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);
    expect(last()).toMatchObject({ quote: { credits: 5 }, stale: true });
  });

  it('shows an error for the current payload only', async () => {
    const { scheduler, calls, last } = setup();
    scheduler.update(req('x'));
    await vi.advanceTimersByTimeAsync(500);
    calls[0]!.reject(new Error('boom'));
    await vi.advanceTimersByTimeAsync(0);
    expect(last().error).not.toBeNull();
    scheduler.update(req('xy'));
    expect(last().error).toBeNull();
  });

  it('dispose aborts the request in flight and ignores its answer', async () => {
    const { scheduler, calls, last } = setup();
    scheduler.update(req('x'));
    await vi.advanceTimersByTimeAsync(500);
    scheduler.dispose();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve(quote(5));
    await vi.advanceTimersByTimeAsync(0);
    expect(last().quote).toBeNull();
  });

  it('compares payloads whatever their key order', () => {
    expect(requestKey({ params: { a: 1, b: 2 }, interfaceId: 'm' })).toBe(
      requestKey({ interfaceId: 'm', params: { b: 2, a: 1 } }),
    );
  });
});
