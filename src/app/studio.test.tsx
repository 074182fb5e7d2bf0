import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudioConfig } from './config';
import { Studio } from './studio';

// A returning visitor (public/before-paint.js sets `data-reconnecting` when a key is stored): the page
// stays hidden while the stored key is checked, so the connect screen never flashes by, and is shown as
// soon as there is something to show.

const root = document.documentElement;
const BASE_URL = 'http://127.0.0.1:4010/v1';

beforeEach(() => {
  localStorage.setItem('media-studio:api-key', 'gm_live_stored');
  localStorage.setItem('media-studio:base-url', BASE_URL);
  root.setAttribute('data-reconnecting', '');
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  root.removeAttribute('data-reconnecting');
  vi.unstubAllGlobals();
});

const refusal = () =>
  new Response(JSON.stringify({ error: { code: 'invalid_token', message: 'The API key is not valid.' } }), {
    status: 401,
    headers: { 'Content-Type': 'application/json' },
  });

describe('a reload with a stored key', () => {
  it('stays hidden while the key is checked, then shows the connect screen with the reason it was refused', async () => {
    let answer: (r: Response) => void = () => undefined;
    const fetch = vi.fn((input: RequestInfo | URL) =>
      String(input).endsWith('/me')
        ? new Promise<Response>((r) => (answer = r))
        : Promise.reject(new Error('offline')),
    );
    vi.stubGlobal('fetch', fetch);
    render(<Studio config={null} />);

    await waitFor(() => expect(fetch.mock.calls.map(([u]) => String(u))).toContain(`${BASE_URL}/me`));
    // Checking: the first render already reconnects, so nothing is revealed yet.
    expect(root.hasAttribute('data-reconnecting')).toBe(true);

    answer(refusal());
    expect(await screen.findByText(/This API key was not accepted/)).toBeTruthy();
    expect(root.hasAttribute('data-reconnecting')).toBe(false);
  });

  it('asks the sandbox for its demo keys only once the connect screen shows, not while the page is hidden', async () => {
    const KEYS_URL = 'http://127.0.0.1:4010/__sandbox/keys';
    let answer: (r: Response) => void = () => undefined;
    const fetch = vi.fn((input: RequestInfo | URL) =>
      String(input).endsWith('/me')
        ? new Promise<Response>((r) => (answer = r))
        : String(input) === KEYS_URL
          ? Promise.resolve(Response.json({ keys: [] }))
          : Promise.reject(new Error('offline')),
    );
    vi.stubGlobal('fetch', fetch);
    const config = { defaultBaseUrl: BASE_URL, sandboxKeysUrl: KEYS_URL } as StudioConfig;
    render(<Studio config={config} />);
    const asked = () => fetch.mock.calls.map(([u]) => String(u));

    await waitFor(() => expect(asked()).toContain(`${BASE_URL}/me`));
    await new Promise((r) => setTimeout(r, 50));
    expect(asked()).not.toContain(KEYS_URL);

    answer(refusal());
    expect(await screen.findByText(/This API key was not accepted/)).toBeTruthy();
    await waitFor(() => expect(asked()).toContain(KEYS_URL));
  });

  it('without a stored key shows the connect screen at once', () => {
    localStorage.clear();
    render(<Studio config={null} />);
    expect(root.hasAttribute('data-reconnecting')).toBe(false);
    expect(screen.getByRole('button', { name: 'Connect' })).toBeTruthy();
  });
});
