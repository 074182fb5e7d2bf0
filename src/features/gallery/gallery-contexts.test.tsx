import 'fake-indexeddb/auto';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../model/db';
import { NO_GALLERY_FILTER } from '../../model/gallery/gallery-filter';
import { HiddenTasks } from '../../model/history/hidden-tasks';
import { JudgementStore } from '../../model/history/judgements';
import type { TeamPicks } from '../../model/team/team-judgements';
import { CONNECTION, makeEntry, storeWith, T0 } from '../../test/gallery-test-utils';
import { setUpGalleryTests } from '../../test/gallery-view-setup';
import { GalleryDataContext, GalleryTeamContext, type GalleryTeam } from './gallery-context';
import { useOpenCompareTwo, useOpenViewer } from './gallery-open';
import { GalleryView } from './gallery-view';

// The Gallery reads its stores from the contexts the app provides (gallery-context.ts), and hands what it
// opens to the children the app composes in (gallery-open.ts): no store and no other feature as a prop.

setUpGalleryTests();

/** A child in the Viewer's and Compare two's place: says what the Gallery has open, and closes it. */
function OpenProbe() {
  const viewer = useOpenViewer();
  const pair = useOpenCompareTwo();
  if (viewer)
    return (
      <button type="button" data-testid="open" onClick={() => viewer.onClose(viewer.current)}>
        {`Viewer: ${viewer.current.key}, ${viewer.index + 1} of ${viewer.items.length}`}
      </button>
    );
  if (pair)
    return (
      <button type="button" data-testid="open" onClick={pair.onClose}>
        Compare two
      </button>
    );
  return <span data-testid="open">closed</span>;
}

/** The team's stars and ratings as a store of the team space's kind: a snapshot, and a signal on change. */
function picksStore() {
  let picks: TeamPicks = new Map();
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    snapshot: () => picks,
    set: (next: TeamPicks) => {
      picks = next;
      for (const l of listeners) l();
    },
  };
}

async function gallery(team?: GalleryTeam) {
  const entries = ['t1', 't2', 't3'].map((id, i) =>
    makeEntry(id, { createdAt: T0 + i * 60_000, params: { prompt: `prompt of ${id}` } }),
  );
  const data = {
    history: await storeWith(entries),
    judgements: await JudgementStore.open(CONNECTION, { db }),
    hidden: await HiddenTasks.open(CONNECTION, { db }),
    reviews: null,
  };
  const view = (
    <GalleryView filter={NO_GALLERY_FILTER} onFilter={vi.fn()} onAddToComparison={vi.fn()}>
      <OpenProbe />
    </GalleryView>
  );
  render(
    <GalleryDataContext value={data}>
      {team ? <GalleryTeamContext value={team}>{view}</GalleryTeamContext> : view}
    </GalleryDataContext>,
  );
  await screen.findAllByTestId('gallery-tile');
  const user = userEvent.setup();
  const tileOf = (key: string) => screen.getAllByTestId('gallery-tile').find((t) => t.dataset.key === key)!;
  return { data, user, tileOf };
}

describe('Gallery: what it reads from the app’s contexts', () => {
  it('stars an output in the connection’s judgements store', async () => {
    const { data, user, tileOf } = await gallery();
    await user.click(within(tileOf('t2#0')).getByRole('button', { name: 'Star' }));
    expect(data.judgements.snapshot().get('t2#0')?.starred).toBe(true);
  });

  it('follows the team’s picks store: a member’s star shows on its tile as it arrives', async () => {
    const picks = picksStore();
    const { tileOf } = await gallery({ picks, earlier: null, reviewTeam: null });
    expect(screen.queryByTestId('team-pick')).toBeNull();
    act(() =>
      picks.set(
        new Map([['t2#0', { outputKey: 't2#0', starredBy: ['key_ann'], averageRating: 5, ratings: 1 }]]),
      ),
    );
    expect(within(tileOf('t2#0')).getByTestId('team-pick')).toBeDefined();
  });

  it('refuses to render without the connection’s stores', async () => {
    // React reports the error it rethrows: quiet here, it is the point of the test.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(async () => {
      render(<GalleryView filter={NO_GALLERY_FILTER} onFilter={vi.fn()} onAddToComparison={vi.fn()} />);
    }).rejects.toThrow(/GalleryDataContext/);
    quiet.mockRestore();
  });
});

describe('Gallery: what it hands the children the app composes in', () => {
  it('the output the Viewer is to show, in the shown set, until it is closed', async () => {
    const { user, tileOf } = await gallery();
    expect(screen.getByTestId('open').textContent).toBe('closed');
    await user.click(within(tileOf('t2#0')).getByRole('button', { name: 'prompt of t2' }));
    expect(screen.getByTestId('open').textContent).toBe('Viewer: t2#0, 2 of 3');
    await user.click(screen.getByTestId('open'));
    expect(screen.getByTestId('open').textContent).toBe('closed');
  });

  it('the pair Compare two is to show, until it is closed', async () => {
    const { user, tileOf } = await gallery();
    for (const key of ['t1#0', 't2#0'])
      await user.click(within(tileOf(key)).getByRole('checkbox', { name: 'Select' }));
    await user.click(screen.getByRole('button', { name: 'Compare two' }));
    expect(screen.getByTestId('open').textContent).toBe('Compare two');
    await user.click(screen.getByTestId('open'));
    expect(screen.getByTestId('open').textContent).toBe('closed');
  });
});
