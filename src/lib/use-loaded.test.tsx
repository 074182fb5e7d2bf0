import { act, renderHook, waitFor } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { preloadModule, useLoaded } from './use-loaded';

describe('useLoaded', () => {
  it('is null until the module has loaded, then the module; a later mount has it at once', async () => {
    const module = { name: 'the module' };
    const load = vi.fn(() => Promise.resolve(module));
    const first = renderHook(() => useLoaded(load));
    expect(first.result.current).toBeNull();
    await waitFor(() => expect(first.result.current).toBe(module));
    // No Suspense: the second mount renders the module on its first render, with no load again.
    const second = renderHook(() => useLoaded(load));
    expect(second.result.current).toBe(module);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads only while wanted, once even when preloaded too', async () => {
    const load = vi.fn(() => Promise.resolve({ ok: true }));
    const hook = renderHook(({ wanted }) => useLoaded(load, wanted), { initialProps: { wanted: false } });
    await act(async () => undefined);
    expect(load).not.toHaveBeenCalled();
    void preloadModule(load);
    hook.rerender({ wanted: true });
    await waitFor(() => expect(hook.result.current).toEqual({ ok: true }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('throws a failed load in render, for the error boundary', async () => {
    const load = () => Promise.reject(new Error('chunk gone'));
    const caught: unknown[] = [];
    class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
      override state = { failed: false };
      static getDerivedStateFromError() {
        return { failed: true };
      }
      override componentDidCatch(error: unknown) {
        caught.push(error);
      }
      override render() {
        return this.state.failed ? null : this.props.children;
      }
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderHook(() => useLoaded(load), { wrapper: Boundary });
    await waitFor(() => expect(caught).toHaveLength(1));
    expect((caught[0] as Error).message).toBe('chunk gone');
  });
});
