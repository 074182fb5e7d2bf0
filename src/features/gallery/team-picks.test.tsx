import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TeamPicks } from '../../model/team/team-judgements';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests, type GalleryProps } from '../../test/gallery-view-setup';
import { NO_GALLERY_FILTER } from '../../model/history/gallery-filter';

// The Gallery with the team space on (docs/team-space.md): "Team picks" shows what any
// member starred, each tile with how many starred it and the average rating; the Viewer has a slot for
// the output's comments, and a notice can open an output in it.

setUpGalleryTests();

const PICKS: TeamPicks = new Map([
  ['t2#0', { outputKey: 't2#0', starredBy: ['key_ann', 'key_bob'], averageRating: 4.5, ratings: 2 }],
  ['t3#0', { outputKey: 't3#0', starredBy: [], averageRating: 2, ratings: 1 }],
]);

async function gallery(props: Partial<GalleryProps> = {}) {
  const entries = ['t1', 't2', 't3'].map((id, i) =>
    makeEntry(id, { createdAt: T0 + i * 60_000, params: { prompt: `prompt of ${id}` } }),
  );
  const view = await renderGallery(entries, props);
  await screen.findAllByTestId('gallery-tile');
  return view;
}

const tileKeys = () => screen.getAllByTestId('gallery-tile').map((t) => t.dataset.key);

describe('Gallery: Team picks', () => {
  it('shows only the outputs some member starred, with how many and their average rating', async () => {
    await gallery({ teamPicks: PICKS, filter: { ...NO_GALLERY_FILTER, teamPicks: true } });
    expect(tileKeys()).toEqual(['t2#0']);
    const tile = screen.getByTestId('gallery-tile');
    expect(within(tile).getByText('Starred by 2, average 4.5')).toBeDefined();
    expect(screen.getByTestId('gallery-count').textContent).toBe('1 of 3 outputs');
  });

  it('offers the "Team picks" filter, and badges every judged tile, while the team space is on', async () => {
    const user = userEvent.setup();
    const { props } = await gallery({ teamPicks: PICKS });
    expect(tileKeys()).toEqual(['t3#0', 't2#0', 't1#0']);
    expect(screen.getAllByTestId('team-pick').map((b) => b.textContent)).toEqual([
      '2★Average rating 2',
      '2 · 4.5★Starred by 2, average 4.5',
    ]);
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Team picks' }));
    expect(props.onFilter).toHaveBeenCalledWith({ ...NO_GALLERY_FILTER, teamPicks: true });
  });

  it('is the local gallery without the team: no filter, no badges, "picks" in the URL ignored', async () => {
    const user = userEvent.setup();
    await gallery({ filter: { ...NO_GALLERY_FILTER, teamPicks: true } });
    expect(tileKeys()).toEqual(['t3#0', 't2#0', 't1#0']);
    expect(screen.queryByTestId('team-pick')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    expect(screen.queryByRole('checkbox', { name: 'Team picks' })).toBeNull();
  });

  it("puts the app's extras (the comments) in the Viewer's side panel, and opens an output asked for", async () => {
    const extras = vi.fn((key: string) => <section aria-label="Comments">Comments on {key}</section>);
    const { rerenderWith } = await gallery({ teamPicks: PICKS, renderOutputExtras: extras });
    expect(screen.queryByRole('dialog', { name: 'Viewer' })).toBeNull();
    rerenderWith({ openOutput: { key: 't2#0', nonce: 1 } });
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    expect(within(viewer).getByRole('region', { name: 'Comments' }).textContent).toBe('Comments on t2#0');
    expect(within(viewer).getByText('Team: Starred by 2, average 4.5')).toBeDefined();
  });
});

describe('Gallery: the team’s earlier tasks', () => {
  it('the grid’s end offers them, and a search asks for them too', async () => {
    const asked: string[] = [];
    const loadMore = vi.fn(async () => undefined);
    const state = { exists: true, status: 'idle' as const, loaded: 0, searching: false, error: null };
    const source = {
      subscribe: () => () => undefined,
      snapshot: () => state,
      loadMore,
      search: async (q: string) => void asked.push(q),
    };
    const view = await gallery({ earlier: source, filter: { ...NO_GALLERY_FILTER, query: 'prompt of' } });
    const button = within(screen.getByTestId('gallery-scroll')).getByRole('button', {
      name: 'Show the team’s earlier tasks',
    });
    await userEvent.setup().click(button);
    expect(loadMore).toHaveBeenCalled();
    await waitFor(() => expect(asked).toEqual(['prompt of']));
    // Nothing here matches: the earlier tasks are still offered (what matches may be among them).
    view.rerenderWith({ filter: { ...NO_GALLERY_FILTER, query: 'lighthouse' } });
    expect(await screen.findByText('No outputs match these filters')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Show the team’s earlier tasks' })).toBeDefined();
    await waitFor(() => expect(asked).toEqual(['prompt of', 'lighthouse']));
  });
});
