import 'fake-indexeddb/auto';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetDbForTests } from '../model/db';
import { useGalleryStores } from './use-gallery-stores';

afterEach(() => vi.restoreAllMocks());

describe('useGalleryStores', () => {
  it('stays without stores, and leaves no rejection unhandled, when the browser will not open its storage', async () => {
    resetDbForTests();
    const open = vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { result } = renderHook(() => useGalleryStores('conn-refused', null));
      await vi.waitFor(() => expect(open).toHaveBeenCalled());
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(result.current).toBeNull();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
