import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { deleteDB } from 'idb';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import { NoticeArea } from '../../components/notice-area';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import { loadLearning, saveLearning } from '../../model/tasks/poll-learning';
import { useTasks } from './use-tasks';

// useTasks starts the connection's poll schedule from GET /me and from what earlier sessions of the
// connection learned, and keeps what it learns (api-notes §8, concurrency).

const CONNECTION = 'conn-use-tasks';
const limits = { tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 120 };
const personal = { limits, user: { creditBalance: 100 } };
const team = { limits, team: { id: 'team_1', creditBalance: 100 } };

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
  localStorage.clear();
});
afterEach(cleanup);

function wrapper({ children }: { children: ReactNode }) {
  const fetch = vi.fn(async () => new Response('{}', { status: 500 }));
  const client = new ApiClient({ baseUrl: 'https://api.example/v1', apiKey: 'sk-secret', fetch });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider value={{ client, connectionId: CONNECTION, baseUrl: client.baseUrl }}>
        {children}
      </ApiProvider>
    </QueryClientProvider>
  );
}

describe('useTasks', () => {
  it('says why tasks cannot be sent when the browser will not open its storage, and gives no runner', async () => {
    render(<NoticeArea />);
    const open = vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    });
    try {
      const { result } = renderHook(() => useTasks(personal), { wrapper });
      expect(
        await screen.findByText(/would not open the studio's storage, so tasks cannot be sent/),
      ).toBeTruthy();
      expect(result.current).toBeNull();
    } finally {
      open.mockRestore();
    }
  });

  it('says a change will not outlive the tab when writing it to this device fails', async () => {
    render(<NoticeArea />);
    const { result } = renderHook(() => useTasks(personal), { wrapper });
    await waitFor(() => expect(result.current).not.toBeNull());
    const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      await expect(result.current!.hidden.hide(['task_1'])).rejects.toThrow();
      expect(
        await screen.findByText(/could not be saved on this device: it will be gone after a reload/),
      ).toBeTruthy();
    } finally {
      transaction.mockRestore();
    }
  });

  it('starts a personal key at its default of 3, taken as the limit', async () => {
    const { result } = renderHook(() => useTasks(personal), { wrapper });
    await waitFor(() => expect(result.current).not.toBeNull());
    expect(result.current?.schedule.concurrency).toBe(3);
    expect(result.current?.schedule.confirmed).toBe(true);
  });

  it('starts a team key at 3, probing for a larger pool', async () => {
    const { result } = renderHook(() => useTasks(team), { wrapper });
    await waitFor(() => expect(result.current).not.toBeNull());
    expect(result.current?.schedule.concurrency).toBe(3);
    expect(result.current?.schedule.confirmed).toBe(false);
  });

  it('starts from what this connection learned before, and keeps what it learns, never with the key', async () => {
    saveLearning(CONNECTION, {
      concurrency: 5,
      confirmed: true,
      runSamples: { '': [4] },
      latencySamples: {},
    });
    const { result } = renderHook(() => useTasks(team), { wrapper });
    await waitFor(() => expect(result.current).not.toBeNull());
    const schedule = result.current!.schedule;
    expect(schedule.concurrency).toBe(5);
    expect(schedule.learnedRunSeconds()).toBe(4);

    // A poll's answer: what was learned is saved for the next session.
    localStorage.clear();
    schedule.sync([{ taskId: 't1', createdAt: Date.now() - 10_000, estimatedSeconds: 4, status: 'queued' }]);
    await schedule.turn({
      taskId: 't1',
      createdAt: Date.now() - 10_000,
      estimatedSeconds: 4,
      status: 'queued',
    });
    schedule.observe('t1', { status: 'running' });
    expect(loadLearning(CONNECTION)).toEqual(schedule.learnedState());
    expect(loadLearning(CONNECTION)).toMatchObject({ concurrency: 5, confirmed: true });
    expect(JSON.stringify({ ...localStorage })).not.toContain('sk-secret');
  });
});
