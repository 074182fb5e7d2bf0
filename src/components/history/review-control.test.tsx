import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../../model/db';
import { ReviewStore, type MemberReviews } from '../../model/history/reviews';
import { ReviewControl, ReviewDisclosure, type ReviewTeam } from './review-control';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});
afterEach(cleanup);

const KEY = 't1#0';
const HOSTILE = '<img src=x onerror="window.__pwned = true">';

/** A team's reviews as a fixed store (TeamReviews' snapshot), the names of its members. */
function teamOf(reviews: MemberReviews): ReviewTeam {
  const names: Record<string, string> = { key_ann: 'Ana', key_bob: 'Bob <b>' };
  return {
    reviews: { subscribe: () => () => undefined, snapshot: () => reviews },
    memberId: 'key_me',
    memberName: (id) => names[id] ?? '',
  };
}

async function control(team?: ReviewTeam) {
  const store = await ReviewStore.open('conn-a', { db });
  const view = render(<ReviewControl outputKey={KEY} reviews={store} team={team} />);
  return { store, user: userEvent.setup(), unmount: view.unmount };
}

const button = (name: string) => screen.getByRole('button', { name });
const items = () => screen.queryAllByTestId('review-item').map((li) => li.textContent);

describe('ReviewControl', () => {
  it('three toggle buttons: the current one pressed, pressed again it takes the review back', async () => {
    const { store, user } = await control();
    const group = screen.getByRole('group', { name: 'Review' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => [b.textContent, b.getAttribute('aria-pressed')]),
    ).toEqual([
      ['Approve', 'false'],
      ['Needs changes', 'false'],
      ['Reject', 'false'],
    ]);

    await user.click(button('Approve'));
    expect(store.get(KEY)?.state).toBe('approved');
    expect(button('Approve').getAttribute('aria-pressed')).toBe('true');

    await user.click(button('Reject'));
    expect(store.get(KEY)?.state).toBe('rejected');
    expect(button('Approve').getAttribute('aria-pressed')).toBe('false');
    expect(button('Reject').getAttribute('aria-pressed')).toBe('true');

    await user.click(button('Reject'));
    expect(store.get(KEY)).toBeUndefined();
    expect(button('Reject').getAttribute('aria-pressed')).toBe('false');
    expect(items()).toEqual([]);
  });

  it('saves the note with the review, and a changed note when the field is left', async () => {
    const { store, user } = await control();
    const note = screen.getByRole('textbox', { name: 'Review note' });
    await user.type(note, 'Warmer light');
    await user.click(button('Needs changes'));
    expect(store.get(KEY)).toMatchObject({ state: 'changes', note: 'Warmer light' });

    await user.clear(note);
    await user.type(note, 'Warmer light, less grain');
    await user.tab();
    await waitFor(() => expect(store.get(KEY)?.note).toBe('Warmer light, less grain'));
    expect(store.get(KEY)?.state).toBe('changes');
  });

  it('saves a note being typed when the control goes without the field being left (Escape closes the Viewer)', async () => {
    const { store, user, unmount } = await control();
    await user.click(button('Approve'));
    await user.type(screen.getByRole('textbox', { name: 'Review note' }), 'Final');
    expect(store.get(KEY)?.note).toBe('');
    unmount();
    await waitFor(() => expect(store.get(KEY)).toMatchObject({ state: 'approved', note: 'Final' }));
  });

  it('lists who reviewed how: the member’s own as "You", the team’s by name, newest first, with the note', async () => {
    const now = Date.now();
    const { store } = await control(
      teamOf(
        new Map([
          [
            KEY,
            [
              { memberId: 'key_ann', state: 'changes', note: 'Crop it', at: now - 3 * 3_600_000 },
              // This member's own as the room holds it: shown once, from this device.
              { memberId: 'key_me', state: 'rejected', note: 'old', at: now - 4 * 3_600_000 },
              { memberId: 'key_bob', state: 'rejected', note: '', at: now - 5 * 86_400_000 },
            ],
          ],
        ]),
      ),
    );
    await store.set(KEY, { state: 'approved', note: 'Ship it' });
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()).toEqual([
      'Approved by Youjust nowShip it',
      'Needs changes: by Ana3 hours agoCrop it',
      'Rejected by Bob <b>5 days ago',
    ]);
  });

  it('renders a note and a name as text, never as markup', async () => {
    const { user } = await control(
      teamOf(new Map([[KEY, [{ memberId: 'key_bob', state: 'rejected', note: HOSTILE, at: Date.now() }]]])),
    );
    await user.type(screen.getByRole('textbox', { name: 'Review note' }), HOSTILE);
    await user.click(button('Approve'));
    const list = screen.getByRole('list', { name: 'Reviews' });
    expect(list.querySelector('img')).toBeNull();
    expect(list.querySelector('b')).toBeNull();
    expect(within(list).getAllByText(HOSTILE)).toHaveLength(2);
    expect(within(list).getByText('Rejected by Bob <b>')).toBeDefined();
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });
});

describe('ReviewDisclosure (a board cell’s Review)', () => {
  it('names the latest review’s state in its summary, anyone’s in a team, and opens onto the control', async () => {
    const store = await ReviewStore.open('conn-a', { db });
    const team = teamOf(new Map([[KEY, [{ memberId: 'key_ann', state: 'changes', note: '', at: 1 }]]]));
    render(<ReviewDisclosure outputKey={KEY} reviews={store} team={team} />);
    const summary = screen.getByText('Review', { selector: 'summary' });
    expect(summary.textContent).toBe('ReviewNeeds changes');
    const user = userEvent.setup();
    await user.click(summary);
    await user.click(button('Approve'));
    expect(store.get(KEY)?.state).toBe('approved');
    // Mine is now the latest.
    await waitFor(() => expect(summary.textContent).toBe('ReviewApproved'));
  });
});
