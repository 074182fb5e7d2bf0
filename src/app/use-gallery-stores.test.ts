import { renderHook } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { ConnectionRuntime } from '../model/connection-runtime';
import { useGalleryStores } from './use-gallery-stores';

// The gallery's stores are the connection runtime's: none before it opens (or when the browser refused
// its storage: useTasks says why), the same objects for as long as it stays.
it("hands down the runtime's gallery stores, the same object across renders, and none without a runtime", () => {
  const runtime = { judgements: {}, hidden: {}, keepers: {} } as unknown as ConnectionRuntime;
  const { result, rerender } = renderHook(({ runner }) => useGalleryStores(runner), {
    initialProps: { runner: null as ConnectionRuntime | null },
  });
  expect(result.current).toBeNull();
  rerender({ runner: runtime });
  const first = result.current;
  expect(first).toEqual({ judgements: runtime.judgements, hidden: runtime.hidden, keepers: runtime.keepers });
  rerender({ runner: runtime });
  expect(result.current).toBe(first);
});
