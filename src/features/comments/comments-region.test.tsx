import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommentTarget } from '../../model/team/comment-types';
import { TeamComments } from '../../model/team/team-comments';
import { teamContext } from '../../test/team-test-context';
import { CommentsRegion } from './comments-region';
import { TeamCommentNotices } from './new-comment-notices';

afterEach(cleanup);

const TARGET: CommentTarget = { kind: 'output', outputKey: 'task_1#0' };
const HOSTILE = '<img src=x onerror=alert(1)>';
const MEMBERS = [
  { id: 'key_ann', name: 'Ann' },
  { id: 'key_bob', name: 'Bob Stone' },
  { id: 'key_eve', name: HOSTILE },
];
const memberName = (id: string) => MEMBERS.find((m) => m.id === id)?.name ?? 'Someone';

function setup(memberId = 'key_ann') {
  const ctx = teamContext(memberId);
  ctx.clock.now = Date.now();
  const comments = new TeamComments(ctx);
  render(
    <CommentsRegion
      comments={comments}
      target={TARGET}
      memberId={memberId}
      memberName={memberName}
      members={MEMBERS}
    />,
  );
  return { ctx, comments, region: screen.getByRole('region', { name: 'Comments' }) };
}

describe('CommentsRegion', () => {
  it('adds a comment, a reply, resolves and reopens the thread', async () => {
    const user = userEvent.setup();
    const { comments, region } = setup();
    expect(within(region).getByText('No comments yet.')).toBeDefined();

    await user.type(within(region).getByRole('textbox', { name: 'Comment' }), 'Sharper than the last one');
    await user.click(within(region).getByRole('button', { name: 'Add comment' }));
    const thread = within(region).getByRole('article', { name: 'Thread by Ann' });
    expect(within(thread).getByText('Sharper than the last one')).toBeDefined();
    expect(within(thread).getByText('just now')).toBeDefined();
    expect(within(region).getByRole('textbox', { name: 'Comment' })).toHaveProperty('value', '');

    await user.click(within(thread).getByRole('button', { name: 'Reply' }));
    const reply = within(thread).getByRole('textbox', { name: 'Reply' });
    expect(document.activeElement).toBe(reply);
    await user.type(reply, 'And the colours{Control>}{Enter}{/Control}');
    const replies = within(thread).getByRole('list', { name: 'Replies' });
    expect(within(replies).getByText('And the colours')).toBeDefined();
    expect(document.activeElement).toBe(within(thread).getByRole('button', { name: 'Reply' }));

    await user.click(within(thread).getByRole('button', { name: 'Resolve' }));
    expect(comments.threads(TARGET)[0]!.resolved).toBe(true);
    expect(within(thread).getByText('Resolved by Ann')).toBeDefined();
    await user.click(within(thread).getByRole('button', { name: 'Reopen' }));
    expect(comments.threads(TARGET)[0]!.resolved).toBe(false);
    expect(within(thread).getByRole('button', { name: 'Resolve' })).toBeDefined();
  });

  it('says why an empty comment is not added', async () => {
    const user = userEvent.setup();
    const { comments, region } = setup();
    await user.type(within(region).getByRole('textbox', { name: 'Comment' }), '   ');
    await user.click(within(region).getByRole('button', { name: 'Add comment' }));
    expect(within(region).getByRole('alert').textContent).toBe('A comment needs some text.');
    expect(comments.snapshot()).toEqual([]);
  });

  it('suggests members to mention and highlights the mention', async () => {
    const user = userEvent.setup();
    const { comments, region } = setup();
    const box = within(region).getByRole('textbox', { name: 'Comment' });
    await user.type(box, 'What do you think @bo');
    const suggestions = within(region).getByRole('group', { name: 'Mention a member' });
    // Not offered to mention oneself.
    expect(within(suggestions).queryByRole('button', { name: '@Ann' })).toBeNull();
    await user.click(within(suggestions).getByRole('button', { name: '@Bob Stone' }));
    expect(box).toHaveProperty('value', 'What do you think @Bob Stone ');
    await user.click(within(region).getByRole('button', { name: 'Add comment' }));
    expect(comments.snapshot()[0]!.mentions).toEqual(['key_bob']);
    expect(within(region).getByText('@Bob Stone').tagName).toBe('MARK');
  });

  it('renders a hostile display name and body as text, never as HTML', () => {
    const eve = teamContext('key_eve');
    eve.clock.now = Date.now();
    const comments = new TeamComments(eve);
    comments.add(TARGET, `Hello ${'<b>bold</b>'} @Ann`, MEMBERS);
    render(
      <CommentsRegion
        comments={comments}
        target={TARGET}
        memberId="key_ann"
        memberName={memberName}
        members={MEMBERS}
      />,
    );
    const region = screen.getByRole('region', { name: 'Comments' });
    expect(region.querySelector('img')).toBeNull();
    expect(region.querySelector('b')).toBeNull();
    expect(within(region).getByText(HOSTILE)).toBeDefined();
    expect(within(region).getByRole('article', { name: `Thread by ${HOSTILE}` })).toBeDefined();
    // Not one's own: no delete.
    expect(within(region).queryByRole('button', { name: 'Delete comment' })).toBeNull();
  });

  it('shows a comment that arrives from another member, and deletes one of ones own', async () => {
    const user = userEvent.setup();
    const { ctx, comments, region } = setup();
    const bob = new TeamComments({ ...teamContext('key_bob', ctx.doc), now: () => Date.now() });
    act(() => void bob.add(TARGET, 'From Bob'));
    expect(within(region).getByRole('article', { name: 'Thread by Bob Stone' })).toBeDefined();
    act(() => void comments.add(TARGET, 'Mine'));
    const mine = within(region).getByRole('article', { name: 'Thread by Ann' });
    await user.click(within(mine).getByRole('button', { name: 'Delete comment' }));
    expect(within(region).queryByRole('article', { name: 'Thread by Ann' })).toBeNull();
  });

  it('a thread the server moved out with its task stays, offers Reply and says it can no longer be resolved', async () => {
    const user = userEvent.setup();
    const { ctx, comments, region } = setup();
    ctx.doc.getMap('meta').set('schemaVersion', 3);
    act(() => void comments.add(TARGET, 'Mine, weeks ago'));
    const id = [...ctx.doc.getMap('comments').keys()][0]!;
    // The server's move (another origin's deletion, in a room that moves comments).
    act(() => ctx.doc.transact(() => ctx.doc.getMap('comments').delete(id), 'server'));
    const thread = within(region).getByRole('article', { name: 'Thread by Ann' });
    expect(within(thread).getByText('Mine, weeks ago')).toBeDefined();
    expect(within(thread).getByText('Earlier thread: it can be answered, no longer resolved.')).toBeDefined();
    expect(within(thread).queryByRole('button', { name: 'Resolve' })).toBeNull();
    expect(within(thread).queryByRole('button', { name: 'Delete comment' })).toBeNull();
    await user.click(within(thread).getByRole('button', { name: 'Reply' }));
    await user.type(within(thread).getByRole('textbox', { name: 'Reply' }), 'Still agree');
    await user.click(within(thread).getByRole('button', { name: 'Add reply' }));
    expect(within(thread).getByText('Still agree')).toBeDefined();
  });
});

describe('TeamCommentNotices', () => {
  it("tells of another member's comment on my output once, with a button to open it", async () => {
    const user = userEvent.setup();
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob', ann.doc);
    ann.clock.now = bob.clock.now = Date.now();
    const annComments = new TeamComments(ann);
    const bobComments = new TeamComments(bob);
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const onOpen = vi.fn();
    const isMine = (key: string) => key === 'task_1#0';
    const view = () => (
      <TeamCommentNotices
        comments={annComments}
        memberId="key_ann"
        isMine={isMine}
        memberName={memberName}
        onOpen={onOpen}
        storage={storage}
        now={ann.now}
      />
    );
    render(view());
    expect(screen.queryByTestId('comment-notices')).toBeNull();

    act(() => void annComments.add(TARGET, 'My own note'));
    expect(screen.queryByTestId('comment-notices')).toBeNull();

    bob.clock.now += 1_000;
    ann.clock.now += 2_000;
    act(() => void bobComments.add(TARGET, `Great one ${HOSTILE}`));
    const notice = screen.getByTestId('comment-notices');
    expect(within(notice).getByText('New comment on your result')).toBeDefined();
    expect(notice.querySelector('img')).toBeNull();
    await user.click(within(notice).getByRole('button', { name: 'Open output' }));
    expect(onOpen).toHaveBeenCalledWith('task_1#0');
    expect(screen.queryByTestId('comment-notices')).toBeNull();

    // Seen stays seen: after a reload (a new mount reading the stored mark) it is not told again.
    cleanup();
    render(view());
    expect(screen.queryByTestId('comment-notices')).toBeNull();
  });
});

describe('TeamCommentNotices, counted and with markup-like text', () => {
  it('counts new comments and mentions, and shows a name and comment that look like message markup as typed', () => {
    const MARKUP_NAME = '<0>Mal</0> <1/>';
    const members = [...MEMBERS, { id: 'key_mal', name: MARKUP_NAME }];
    const nameOf = (id: string) => members.find((m) => m.id === id)?.name ?? 'Someone';
    const ann = teamContext('key_ann');
    const mal = teamContext('key_mal', ann.doc);
    ann.clock.now = mal.clock.now = Date.now();
    const malComments = new TeamComments(mal);
    const store = new Map<string, string>();
    render(
      <TeamCommentNotices
        comments={new TeamComments(ann)}
        memberId="key_ann"
        isMine={(key) => key === 'task_1#0'}
        memberName={nameOf}
        onOpen={() => undefined}
        storage={{ getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) }}
        now={ann.now}
      />,
    );
    mal.clock.now += 1_000;
    ann.clock.now += 5_000;
    const add = (target: CommentTarget, body: string) => {
      mal.clock.now += 10;
      malComments.add(target, body, members);
    };
    act(() => {
      add(TARGET, 'First <0>one</0>');
      add(TARGET, 'Second');
      add(TARGET, 'Third');
      add({ kind: 'output', outputKey: 'task_9#0' }, 'Look @Ann {count} <2>here</2>');
    });
    const notice = screen.getByTestId('comment-notices');
    expect(within(notice).getByText('4 new comments (1 mentioning you)')).toBeDefined();
    const items = within(notice)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('span')!.textContent);
    expect(items).toEqual([
      `${MARKUP_NAME} mentioned you: Look @Ann {count} <2>here</2>`,
      `${MARKUP_NAME}: Third`,
      `${MARKUP_NAME}: Second`,
    ]);
    expect(within(notice).getByText('and 1 more.')).toBeDefined();
  });
});
