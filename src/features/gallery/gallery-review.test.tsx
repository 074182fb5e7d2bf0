import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReviewTeam } from '../../components/history/review-control';
import { db } from '../../model/db';
import { NO_GALLERY_FILTER, type GalleryFilter } from '../../model/gallery/gallery-filter';
import { ReviewStore, type MemberReviews } from '../../model/history/reviews';
import { CONNECTION, makeEntry, T0 } from '../../test/gallery-test-utils';
import { renderGallery, setUpGalleryTests, type GalleryProps } from '../../test/gallery-view-setup';

// The Gallery's Review (docs/using.md "Review"): a badge of each reviewed tile's latest review, the "Review"
// filter, the Viewer's control and the selection toolbar's actions.

setUpGalleryTests();

/** Four outputs, t1 oldest; t1 approved, t2 needs changes, t3 rejected here, t4 not reviewed. */
async function gallery(props: Partial<GalleryProps> = {}, reviewed = true) {
  const entries = ['t1', 't2', 't3', 't4'].map((id, i) => makeEntry(id, { createdAt: T0 + i * 60_000 }));
  const reviews = await ReviewStore.open(CONNECTION, { db, now: () => T0 + 3_600_000 });
  if (reviewed) {
    await reviews.set('t1#0', { state: 'approved' });
    await reviews.set('t2#0', { state: 'changes', note: 'Brighter' });
    await reviews.set('t3#0', { state: 'rejected' });
  }
  const view = await renderGallery(entries, { reviews, ...props });
  await screen.findAllByTestId('gallery-tile');
  return { ...view, reviews, user: userEvent.setup() };
}

const tileKeys = () => screen.getAllByTestId('gallery-tile').map((t) => t.dataset.key);
const filtered = (review: GalleryFilter['review']) => ({ filter: { ...NO_GALLERY_FILTER, review } });
const tileOf = (key: string) =>
  screen.getAllByRole('listitem').find((li) => li.querySelector(`[data-key="${key}"]`))!;

describe('Gallery: Review', () => {
  it('badges each reviewed tile with its review', async () => {
    await gallery();
    expect(within(tileOf('t1#0')).getByTestId('tile-review').textContent).toBe('Approved');
    expect(within(tileOf('t2#0')).getByTestId('tile-review').textContent).toBe('Needs changes');
    expect(within(tileOf('t3#0')).getByTestId('tile-review').textContent).toBe('Rejected');
    expect(within(tileOf('t4#0')).queryByTestId('tile-review')).toBeNull();
  });

  it('the "Review" filter keeps the outputs of one state, or those not reviewed', async () => {
    const { rerenderWith } = await gallery(filtered('approved'));
    expect(tileKeys()).toEqual(['t1#0']);
    expect(screen.getByRole('button', { name: /^Filters/ }).textContent).toMatch(/1/);
    rerenderWith(filtered('rejected'));
    await waitFor(() => expect(tileKeys()).toEqual(['t3#0']));
    rerenderWith(filtered('changes'));
    await waitFor(() => expect(tileKeys()).toEqual(['t2#0']));
    rerenderWith(filtered('none'));
    await waitFor(() => expect(tileKeys()).toEqual(['t4#0']));
    rerenderWith(filtered('all'));
    await waitFor(() => expect(tileKeys()).toEqual(['t4#0', 't3#0', 't2#0', 't1#0']));
  });

  it('offers "Review" in the filter panel with Any, the three states and Not reviewed', async () => {
    const { props, user } = await gallery();
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    const select = screen.getByRole('combobox', { name: 'Review' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Any review', 'Approved', 'Needs changes', 'Rejected', 'Not reviewed']);
    await user.selectOptions(select, 'Rejected');
    expect(props.onFilter).toHaveBeenCalledWith({ ...NO_GALLERY_FILTER, review: 'rejected' });
  });

  it('in a team, an output is filtered by its latest review, of anyone’s', async () => {
    const later = T0 + 7_200_000;
    const team: MemberReviews = new Map([
      // Bob rejected t1 after this member approved it; an older review of t2 does not count.
      ['t1#0', [{ memberId: 'key_bob', state: 'rejected', note: '', at: later }]],
      ['t2#0', [{ memberId: 'key_bob', state: 'approved', note: '', at: T0 }]],
      ['t4#0', [{ memberId: 'key_bob', state: 'approved', note: '', at: later }]],
    ]);
    const reviewTeam: ReviewTeam = {
      reviews: { subscribe: () => () => undefined, snapshot: () => team },
      memberId: 'key_me',
      memberName: () => 'Bob',
    };
    await gallery({ reviewTeam, ...filtered('approved') });
    expect(tileKeys()).toEqual(['t4#0']);
    expect(within(tileOf('t4#0')).getByTestId('tile-review').textContent).toBe('Approved');
  });

  it('reviews in the Viewer: Approve with a note, the tile then says so', async () => {
    const { reviews, user } = await gallery({}, false);
    await user.click(screen.getByRole('button', { name: 'prompt of t4' }));
    const viewer = await screen.findByRole('dialog', { name: 'Viewer' });
    await user.type(within(viewer).getByRole('textbox', { name: 'Review note' }), 'Use this one');
    await user.click(within(viewer).getByRole('button', { name: 'Approve' }));
    expect(reviews.get('t4#0')).toMatchObject({ state: 'approved', note: 'Use this one' });
    expect(within(viewer).getByRole('list', { name: 'Reviews' }).textContent).toContain('Approved by You');
    // Typing in the note is no shortcut: "s" did not star the output.
    expect(within(viewer).getByRole('button', { name: 'Star' }).getAttribute('aria-pressed')).toBe('false');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Viewer' })).toBeNull());
    expect(within(tileOf('t4#0')).getByTestId('tile-review').textContent).toBe('Approved');
  });

  it('reviews a selection at once from the toolbar; pressed again, the reviews are taken back', async () => {
    const { reviews, user } = await gallery({}, false);
    for (const key of ['t1#0', 't2#0']) {
      await user.click(within(tileOf(key)).getByRole('checkbox', { name: 'Select' }));
    }
    const toolbar = screen.getByRole('toolbar', { name: 'Selection' });
    const reject = within(toolbar).getByRole('button', { name: 'Reject' });
    expect(reject.getAttribute('aria-pressed')).toBe('false');
    await user.click(reject);
    expect([reviews.get('t1#0')?.state, reviews.get('t2#0')?.state]).toEqual(['rejected', 'rejected']);
    await waitFor(() => expect(reject.getAttribute('aria-pressed')).toBe('true'));
    await user.click(reject);
    expect(reviews.snapshot().size).toBe(0);
  });
});
