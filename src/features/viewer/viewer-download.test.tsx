import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../lib/save-file';
import { readRecipe } from '../../model/recipes/file-recipe';
import { CDN, makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests } from '../../test/gallery-view-setup';
import { tinyPng } from '../../test/tiny-png';

// The Viewer's Download writes the recipe of the output it shows: a task's second output says it is the
// second (its index comes from the output's key), with the task's params.

vi.mock(import('../../lib/save-file'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));

setUpGalleryTests();
beforeEach(() => {
  vi.mocked(saveBlob).mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(tinyPng().slice(), { headers: { 'content-type': 'image/png' } })),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("the Viewer's Download", () => {
  it("writes the shown output's recipe into the file, with its index", async () => {
    const entry = makeEntry('t1', {
      createdAt: T0,
      outputs: [{ url: `${CDN}/first.png` }, { url: `${CDN}/second.png` }],
      params: { prompt: 'two teapots', seed: 9 },
    });
    await renderGallery([entry]);
    await screen.findAllByTestId('gallery-tile');
    const tile = screen.getAllByTestId('gallery-tile').find((t) => t.dataset.key === 't1#1')!;
    const user = userEvent.setup();
    await user.click(within(tile).getByRole('button', { name: 'two teapots (output 2 of 2)' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    await user.click(within(viewer).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fetch).toHaveBeenCalledWith(`${CDN}/second.png`, expect.objectContaining({ credentials: 'omit' }));
    const blob = vi.mocked(saveBlob).mock.calls[0]![0];
    expect(readRecipe(new Uint8Array(await blob.arrayBuffer()))).toMatchObject({
      kind: 'recipe',
      recipe: { taskId: 't1', outputIndex: 1, prompt: 'two teapots', seed: 9 },
    });
  });
});
