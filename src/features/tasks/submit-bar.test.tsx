import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import { SubmitBar } from './submit-bar';
import { submitWaitText } from './use-submit-wait';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse('2025-06-01T12:00:00Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderBar(client: ApiClient) {
  return render(
    <ApiProvider value={{ client, connectionId: 'c', baseUrl: client.baseUrl }}>
      <form>
        <SubmitBar busy result={null} />
      </form>
    </ApiProvider>,
  );
}

it('a submit held by the POST /tasks limit says what it waits for and when it goes', async () => {
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch: vi.fn() });
  // 60 tasks sent in this minute; the 61st waits for the window (api-notes §8).
  for (let i = 0; i < 60; i++) await client.limiter.acquire('tasks.create');
  await vi.advanceTimersByTimeAsync(5_000);
  const held = client.limiter.acquire('tasks.create');
  renderBar(client);

  // 60 s window + 1 s margin, 5 s gone: 56 s, said in steps of 5.
  expect(screen.getByRole('status').textContent).toBe(
    "Waiting for the service's limit of 60 tasks a minute: sending in 60 s",
  );
  await act(() => vi.advanceTimersByTimeAsync(48_000));
  expect(screen.getByRole('status').textContent).toBe(
    "Waiting for the service's limit of 60 tasks a minute: sending in 8 s",
  );
  // The window has room: it is sent, and the bar says so.
  await act(() => vi.advanceTimersByTimeAsync(8_000));
  await held;
  expect(screen.getByRole('status').textContent).toBe('Submitting…');
});

it('a submit not held by the limit shows "Submitting…"', () => {
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'k', fetch: vi.fn() });
  renderBar(client);
  expect(screen.getByRole('status').textContent).toBe('Submitting…');
});

it('counts down in whole seconds up to 10, then in steps of 5', () => {
  const wait = "Waiting for the service's limit of 60 tasks a minute: ";
  expect(submitWaitText(60, 56_000)).toBe(`${wait}sending in 60 s`);
  expect(submitWaitText(60, 12_300)).toBe(`${wait}sending in 15 s`);
  expect(submitWaitText(60, 10_000)).toBe(`${wait}sending in 10 s`);
  expect(submitWaitText(60, 2_100)).toBe(`${wait}sending in 3 s`);
  expect(submitWaitText(60, 0)).toBe(`${wait}sending in 1 s`);
});
