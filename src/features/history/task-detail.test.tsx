import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../../model/history/history-types';
import { CDN, freshDatabase, makeEntry, stubLayout, storeWith, T0 } from '../../test/gallery-test-utils';
import type { KeepersStore } from '../../model/history/keepers';
import { HistoryPanel } from './history-panel';
import { KeptCopyContext } from '../../components/history/kept-copy-context';
import { readRecipe } from '../../model/recipes/file-recipe';
import { pngChunk } from '../../model/recipes/png-chunks';
import { tinyPng } from '../../test/tiny-png';

let restoreLayout: () => void = () => undefined;
beforeEach(async () => {
  await freshDatabase();
  restoreLayout = stubLayout();
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const SUCCEEDED = makeEntry('task_AbCdEfGh1234', {
  createdAt: T0,
  completedAt: T0 + 14_000,
  outputs: [{ url: `${CDN}/render.jpg` }],
  params: { prompt: 'a glass teapot, studio light', 'style.preset': 'cinematic', seed: 42, refs: ['a', 'b'] },
  raw: {
    taskId: 'task_AbCdEfGh1234',
    status: 'succeeded',
    outputs: [{ url: `${CDN}/render.jpg` }],
    error: null,
    creditsCharged: 4,
    createdAt: new Date(T0).toISOString(),
    completedAt: new Date(T0 + 14_000).toISOString(),
  },
});
const FAILED = makeEntry('task_failed', {
  createdAt: T0 - 1_000,
  status: 'failed',
  outputs: [],
  error: { code: 'generation_failed', message: 'Could not finish.' },
  creditsCharged: 0,
  params: { prompt: 'broken' },
});

async function openDetail(entry: HistoryEntry, keepers: KeepersStore | null = null) {
  const store = await storeWith([SUCCEEDED, FAILED]);
  const onRemix = vi.fn<(entry: HistoryEntry) => void>();
  const onUseAsInput = vi.fn<(url: string, mediaType: 'image' | 'video' | 'audio') => void>();
  const user = userEvent.setup();
  render(
    <KeptCopyContext.Provider value={keepers}>
      <HistoryPanel store={store} sending={[]} onRemix={onRemix} onUseAsInput={onUseAsInput} />
    </KeptCopyContext.Provider>,
  );
  const region = screen.getByRole('region', { name: 'History' });
  const card = within(region)
    .getAllByTestId('task-card')
    .find((c) => c.dataset.taskId === entry.taskId);
  if (!card) throw new Error('no card');
  const opener = within(card).getByRole('button', { name: entry.meta.title });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog');
  return { dialog, user, onRemix, onUseAsInput, opener, store };
}

describe('TaskDetail', () => {
  it('shows every param by its exact key (a dotted id stays one key), timings and the raw JSON', async () => {
    const { dialog } = await openDetail(SUCCEEDED);
    const params = within(dialog).getByTestId('param-list');
    const rows = [...params.querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(rows).toEqual([
      ['interfaceId', 'lumen-canvas'],
      ['versionId', 'lumen-2'],
      ['prompt', 'a glass teapot, studio light'],
      ['style.preset', 'cinematic'],
      ['seed', '42'],
      ['refs', 'a, b'],
    ]);
    expect(within(dialog).getByText('14 s')).toBeTruthy();
    expect(within(dialog).getByText('12 s (from the quote)')).toBeTruthy();
    const raw = within(dialog).getByTestId('raw-json').textContent ?? '';
    expect(JSON.parse(raw)).toEqual(SUCCEEDED.raw);
    expect(within(dialog).getByRole('img', { name: 'a glass teapot, studio light' })).toBeTruthy();
  });

  it('"Remix" and "Use as input" call back and close; focus returns to the card', async () => {
    const first = await openDetail(SUCCEEDED);
    await first.user.click(within(first.dialog).getByRole('button', { name: 'Use as input' }));
    expect(first.onUseAsInput).toHaveBeenCalledWith(`${CDN}/render.jpg`, 'image');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(first.opener));

    await first.user.click(first.opener);
    const dialog = await screen.findByRole('dialog');
    await first.user.click(within(dialog).getByRole('button', { name: 'Remix' }));
    expect(first.onRemix).toHaveBeenCalledTimes(1);
    expect(first.onRemix.mock.calls[0]?.[0].taskId).toBe(SUCCEEDED.taskId);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a failed task offers Remix only, and shows its error', async () => {
    const { dialog, user, onRemix } = await openDetail(FAILED);
    expect(within(dialog).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Use as input' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Copy URL' })).toBeNull();
    expect(within(dialog).getByText('generation_failed')).toBeTruthy();
    expect(within(dialog).getByText('Could not finish.')).toBeTruthy();
    // No raw answer yet: the entry itself, without local bookkeeping.
    const raw = JSON.parse(within(dialog).getByTestId('raw-json').textContent ?? '{}') as Record<
      string,
      unknown
    >;
    expect(raw.taskId).toBe('task_failed');
    expect(raw).not.toHaveProperty('connectionId');
    await user.click(within(dialog).getByRole('button', { name: 'Remix' }));
    expect(onRemix).toHaveBeenCalledTimes(1);
  });

  it('"Download" names the file from the response Content-Type, not the URL extension', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:out');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const saved: Array<{ name: string; href: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    const { dialog, user } = await openDetail(SUCCEEDED);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual([{ name: 'lumen-canvas-AbCdEfGh.png', href: 'blob:out' }]));
    expect(fetchMock).toHaveBeenCalledWith(
      `${CDN}/render.jpg`,
      expect.objectContaining({ credentials: 'omit' }),
    );
    expect(within(dialog).getByText('Saved as lumen-canvas-AbCdEfGh.png')).toBeTruthy();
  });

  it('"Download" writes the recipe into the file; a file with Content Credentials keeps its bytes and says so', async () => {
    const plain = tinyPng();
    const signed = tinyPng(pngChunk('caBX', new TextEncoder().encode('jumbc2pa')));
    let served = plain;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(served.slice(), { headers: { 'content-type': 'image/png' } })),
    );
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:out';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { dialog, user } = await openDetail(SUCCEEDED);
    const download = within(dialog).getByRole('button', { name: 'Download' });
    await user.click(download);
    await waitFor(() => expect(blobs).toHaveLength(1));
    const written = readRecipe(new Uint8Array(await (blobs[0] as Blob).arrayBuffer()));
    expect(written).toMatchObject({
      kind: 'recipe',
      recipe: {
        taskId: 'task_AbCdEfGh1234',
        outputIndex: 0,
        prompt: 'a glass teapot, studio light',
        seed: 42,
      },
    });
    expect(download.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).queryByText(/Content Credentials/)).toBeNull();

    served = signed;
    await user.click(download);
    await waitFor(() => expect(blobs).toHaveLength(2));
    const bytes = new Uint8Array(await (blobs[1] as Blob).arrayBuffer());
    expect(Array.from(bytes)).toEqual(Array.from(signed));
    await waitFor(() => expect(download.getAttribute('aria-describedby') ?? '').not.toBe(''));
    const description = document.getElementById(download.getAttribute('aria-describedby') ?? '');
    await waitFor(() => expect(description?.textContent).toMatch(/It carries Content Credentials/));
  });

  it('a failed download says so and links to the file', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('gone', { status: 404 })),
    );
    const { dialog, user } = await openDetail(SUCCEEDED);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText('Could not download the file')).toBeTruthy();
    expect(within(dialog).getByText('The file server answered 404.')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('link', { name: /Open it in a new tab/ })
        .getAttribute('href'),
    ).toBe(`${CDN}/render.jpg`);
  });

  it('a download whose URL fails saves the copy kept on this device, found by the output key', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('gone', { status: 410 })),
    );
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:kept');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const blobFor = vi.fn(async (key: string) => (key === 'task_AbCdEfGh1234#0' ? new Blob(['png']) : null));
    const keepers = {
      blobFor,
      snapshot: () => ({
        kept: new Map([['task_AbCdEfGh1234#0', { contentType: 'image/png' }]]),
        bytes: 3,
        saving: 0,
        failure: null,
      }),
    } as unknown as KeepersStore;
    const { dialog, user } = await openDetail(SUCCEEDED, keepers);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(
      await within(dialog).findByText(
        'Saved as lumen-canvas-AbCdEfGh.png, from the copy kept on this device (its URL did not answer)',
      ),
    ).toBeTruthy();
    expect(saved).toEqual(['lumen-canvas-AbCdEfGh.png']);
    expect(blobFor).toHaveBeenCalledWith('task_AbCdEfGh1234#0');
    expect(within(dialog).queryByText('Could not download the file')).toBeNull();
  });

  it('"Copy URL" writes the output URL to the clipboard', async () => {
    const { dialog, user } = await openDetail(SUCCEEDED);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await user.click(within(dialog).getByRole('button', { name: 'Copy URL' }));
    expect(writeText).toHaveBeenCalledWith(`${CDN}/render.jpg`);
    expect(await within(dialog).findByText('URL copied.')).toBeTruthy();
  });
});
