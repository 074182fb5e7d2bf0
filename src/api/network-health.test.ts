import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './client';
import { clientError, errorFromResponse } from './errors';
import { NetworkHealth, RECOVERED_FOR_MS, SLOW_AFTER_MS } from './network-health';

const http = (status: number, code: string, retryAfter?: string) =>
  errorFromResponse({
    status,
    bodyText: JSON.stringify({ error: { message: 'x', type: 'api_error', code } }),
    retryAfterHeader: retryAfter ?? null,
    now: 0,
  });

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('NetworkHealth', () => {
  it('is ok until something goes wrong', () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    health.ended(health.started());
    expect(health.state()).toEqual({ kind: 'ok' });
  });

  it('a request with no answer makes the service unreachable, with the retry time, until an answer arrives', () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    const recovered = vi.fn();
    health.onRecovered(recovered);
    const since = c.now();
    health.ended(health.started(), clientError('network_error'));
    health.retrying(since + 1_000);
    expect(health.state()).toEqual({ kind: 'unreachable', since, status: 0, retryAt: since + 1_000 });

    // More failures keep the time it began.
    c.advance(3_000);
    health.ended(health.started(), clientError('timeout'));
    expect(health.state()).toMatchObject({ kind: 'unreachable', since });
    expect(recovered).not.toHaveBeenCalled();

    c.advance(1_000);
    health.ended(health.started());
    expect(health.state()).toEqual({ kind: 'recovered', at: c.now() });
    expect(recovered).toHaveBeenCalledTimes(1);
    expect(health.state(c.now() + RECOVERED_FOR_MS)).toEqual({ kind: 'ok' });
  });

  it('502, 503 and 504 are the service failing; a 4xx answer is the service speaking and ends it', () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    for (const status of [502, 503, 504]) {
      health.ended(health.started(), http(status, 'x'));
      expect(health.state()).toMatchObject({ kind: 'failing', status });
    }
    health.ended(health.started(), http(400, 'invalid_payload'));
    expect(health.state().kind).toBe('recovered');
  });

  it('a rate-limit 429 is a wait until its Retry-After, ending quietly', () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    const recovered = vi.fn();
    health.onRecovered(recovered);
    health.ended(health.started(), http(429, 'rate_limited', '4'));
    expect(health.state()).toEqual({ kind: 'rate-limited', until: c.now() + 4_000 });
    expect(health.state(c.now() + 4_000)).toEqual({ kind: 'ok' });
    health.ended(health.started());
    expect(health.state()).toEqual({ kind: 'ok' });
    expect(recovered).not.toHaveBeenCalled();
  });

  it('the daily cap 429 is not a network problem', () => {
    const health = new NetworkHealth();
    health.ended(health.started(), http(429, 'token_daily_cap_reached', '3600'));
    expect(health.state()).toEqual({ kind: 'ok' });
  });

  it('a request out longer than SLOW_AFTER_MS is slow; an upload never is', () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    const upload = health.started({ countsAsSlow: false });
    c.advance(SLOW_AFTER_MS * 3);
    expect(health.state()).toEqual({ kind: 'ok' });
    const since = c.now();
    const poll = health.started();
    expect(health.state(since + SLOW_AFTER_MS - 1)).toEqual({ kind: 'ok' });
    expect(health.state(since + SLOW_AFTER_MS)).toEqual({ kind: 'slow', since });
    health.ended(poll);
    health.ended(upload);
    expect(health.state(since + SLOW_AFTER_MS)).toEqual({ kind: 'ok' });
  });

  it('an aborted request changes nothing', () => {
    const health = new NetworkHealth();
    health.ended(health.started(), clientError('network_error'));
    health.ended(health.started(), clientError('aborted'));
    expect(health.state().kind).toBe('unreachable');
  });

  it('tells its subscribers of every change', () => {
    const health = new NetworkHealth();
    const listener = vi.fn();
    const unsubscribe = health.subscribe(listener);
    health.ended(health.started(), clientError('network_error'));
    expect(listener).toHaveBeenCalled();
    unsubscribe();
    listener.mockClear();
    health.ended(health.started());
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('ApiClient reports to its NetworkHealth', () => {
  it('connection failures, the retry countdown, then the answer', async () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    const seen: string[] = [];
    health.subscribe(() => seen.push(health.state().kind));
    let calls = 0;
    const fetch = vi.fn(async () => {
      calls += 1;
      if (calls <= 2) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ taskId: 't', status: 'queued' }), { status: 200 });
    });
    const retries: number[] = [];
    const client = new ApiClient({
      baseUrl: 'https://api.example/v1',
      apiKey: 'k',
      fetch,
      health,
      now: c.now,
      sleep: async (ms) => {
        const s = health.state();
        if (s.kind === 'unreachable') retries.push(s.retryAt! - c.now());
        c.advance(ms);
      },
    });
    await client.getTask('t').catch(() => undefined);
    expect(retries).toEqual([1_000, 3_000]);
    expect(seen).toContain('unreachable');
    expect(health.state().kind).toBe('recovered');
    expect(client.health).toBe(health);
  });

  it('an upload that takes long does not look slow', async () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    let during: string | undefined;
    const client = new ApiClient({
      baseUrl: 'https://api.example/v1',
      apiKey: 'k',
      health,
      now: c.now,
      fetch: async () => {
        c.advance(SLOW_AFTER_MS * 2);
        during = health.state().kind;
        return new Response(
          JSON.stringify({
            status: 'ready',
            url: 'https://api.example/cdn/u.png',
            size: 1,
            contentType: 'image/png',
          }),
          { status: 200 },
        );
      },
    });
    await client.uploadFile(new Blob(['x']), 'image/png');
    expect(during).toBe('ok');
  });

  it('neither does a describe-image call, which a vision model takes its time over', async () => {
    const c = clock();
    const health = new NetworkHealth({ now: c.now });
    let during: string | undefined;
    const client = new ApiClient({
      baseUrl: 'https://api.example/v1',
      apiKey: 'k',
      health,
      now: c.now,
      fetch: async () => {
        c.advance(SLOW_AFTER_MS * 2);
        during = health.state().kind;
        return new Response(JSON.stringify({ credits: 1, overallDescription: 'a fox' }), { status: 200 });
      },
    });
    await client.describeImage({ imageUrl: 'https://api.example/cdn/u.png' });
    expect(during).toBe('ok');
  });
});
