import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TeamPicks } from '../../model/team/team-judgements';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests, type GalleryProps } from '../../test/gallery-view-setup';
import { monthDays, NO_GALLERY_FILTER } from '../../model/gallery/gallery-filter';
import type { EarlierRange, EarlierState } from '../../model/team/team-archive';

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

  it('the dates are read from their own end; a whole month leads on to the month before', async () => {
    const ranges: EarlierRange[] = [];
    const reader = (status: EarlierState['status']) => {
      const state: EarlierState = { exists: true, status, loaded: 0, searching: false, error: null };
      return {
        subscribe: () => () => undefined,
        snapshot: () => state,
        loadMore: vi.fn(async () => undefined),
        search: async () => undefined,
      };
    };
    const inJune = reader('done');
    const today = reader('idle');
    const source = {
      ...today,
      // As TeamArchive: no dates, the list from today.
      within: (range: EarlierRange) => {
        ranges.push(range);
        return range.until === undefined && range.since === undefined ? today : inJune;
      },
    };
    const view = await gallery({
      earlier: source,
      filter: { ...NO_GALLERY_FILTER, ...monthDays('2025-06') },
    });
    // June 2025 in local days: from its first midnight to July's.
    expect(ranges.at(-1)).toEqual({
      until: new Date(2025, 6, 1).getTime(),
      since: new Date(2025, 5, 1).getTime(),
    });
    expect(screen.getByText('Every task of the team in these dates is shown.')).toBeDefined();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go on to May 2025' }));
    expect(view.props.onFilter).toHaveBeenLastCalledWith(
      expect.objectContaining({ from: '2025-05-01', to: '2025-05-31' }),
    );
    // Without dates the list is read from today, as the History's.
    view.rerenderWith({ filter: NO_GALLERY_FILTER });
    expect(screen.getByRole('button', { name: 'Show the team’s earlier tasks' })).toBeDefined();
    expect(screen.queryByRole('button', { name: /^Go on to/ })).toBeNull();
  });

  it('the Filters panel sets a whole month as the dates in one choice, and shows it chosen', async () => {
    const user = userEvent.setup();
    const view = await gallery();
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Month' }), 'June 2025');
    expect(view.props.onFilter).toHaveBeenLastCalledWith(
      expect.objectContaining({ from: '2025-06-01', to: '2025-06-30' }),
    );
    view.rerenderWith({ filter: { ...NO_GALLERY_FILTER, ...monthDays('2025-06') } });
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Month' }).value).toBe('2025-06');
    view.rerenderWith({ filter: { ...NO_GALLERY_FILTER, from: '2025-06-03' } });
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Month' }).value).toBe('dates');
  });
});
