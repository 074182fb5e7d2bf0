import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../model/db';
import { KeepersStore } from '../../model/history/keepers';
import { galleryItemsOf } from '../../model/gallery/gallery-item';
import { CDN, CONNECTION, freshDatabase, makeEntry } from '../../test/gallery-test-utils';
import { StorageMeter } from './storage-meter';

beforeEach(freshDatabase);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const [one, two] = galleryItemsOf([
  makeEntry('task_one', { outputs: [{ url: `${CDN}/one.png` }] }),
  makeEntry('task_two', { outputs: [{ url: `${CDN}/two.png` }] }),
]);

const files = async (url: string | URL | Request) =>
  new Response('x'.repeat(String(url).endsWith('one.png') ? 1500 : 2500), {
    headers: { 'Content-Type': 'image/png' },
  });

describe('StorageMeter', () => {
  it('shows what is kept and the space used against the quota, following each keep', async () => {
    const keepers = await KeepersStore.open(CONNECTION, { db, fetch: files, persist: async () => true });
    let usage = 40 * 2 ** 20;
    const estimate = vi.fn(async () => ({ usage, quota: 1.2 * 2 ** 30 }));
    render(<StorageMeter keepers={keepers} estimate={estimate} />);
    const region = screen.getByRole('region', { name: 'Storage on this device' });
    expect(region.textContent).toContain('No starred output is kept on this device yet.');
    const meter = await within(region).findByRole('meter', { name: 'Storage used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('40.0 MB of 1.2 GB (3%)');

    usage = 0.6 * 2 ** 30;
    await act(() => keepers.keep(one!));
    await act(() => keepers.keep(two!));
    expect(region.textContent).toContain('Kept on this device: 2 starred outputs, 3.9 KB.');
    await vi.waitFor(() => expect(meter.getAttribute('aria-valuenow')).toBe('50'));
    expect(region.textContent).toContain(
      'The studio uses 614 MB of the 1.2 GB this browser allows it (50%).',
    );
  });

  it('says clearly when storage is full; the message can be dismissed', async () => {
    const keepers = await KeepersStore.open(CONNECTION, { db, fetch: files, persist: async () => true });
    const estimate = async () => ({ usage: 1_199_000_000, quota: 1.2 * 2 ** 30 });
    render(<StorageMeter keepers={keepers} estimate={estimate} />);
    expect(await screen.findByText('Storage is nearly full')).toBeTruthy();
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementationOnce(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const result = await act(() => keepers.keep(one!));
    expect(result.ok).toBe(false);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Storage is full')).toBeTruthy();
    expect(alert.textContent).toContain('the output is starred but not saved here');
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('works without navigator.storage.estimate (kept size only)', async () => {
    const keepers = await KeepersStore.open(CONNECTION, { db, fetch: files, persist: async () => true });
    vi.stubGlobal('navigator', { ...navigator, storage: undefined });
    render(<StorageMeter keepers={keepers} />);
    expect(screen.getByRole('region', { name: 'Storage on this device' })).toBeTruthy();
    expect(screen.queryByRole('meter')).toBeNull();
    vi.unstubAllGlobals();
  });
});
