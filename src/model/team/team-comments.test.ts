import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { sync, teamContext } from '../../test/team-test-context';
import { CLOCK_SLACK_MS, commentNotices, loadSeen, markSeen, saveSeen } from './comment-notices';
import type { CommentTarget } from './comment-types';
import { mentionSpans, parseMentions, splitMentions } from './mentions';
import { ROOTS } from './team-doc';
import { CommentInputError, TeamComments } from './team-comments';

const OUTPUT: CommentTarget = { kind: 'output', outputKey: 'task_1#0' };
const CELL: CommentTarget = { kind: 'cell', boardId: 'b1', cellKey: 'r1|m1' };
const MEMBERS = [
  { id: 'key_ann', name: 'Ann' },
  { id: 'key_annlee', name: 'Ann Lee' },
  { id: 'key_bob', name: 'Bob' },
  { id: 'key_eve', name: '<img src=x onerror=alert(1)>' },
];

let ids = 0;
const counter = () => `c${++ids}`;

describe('TeamComments', () => {
  it('adds a thread, a reply, resolves and reopens it', () => {
    const ctx = teamContext('key_ann');
    const comments = new TeamComments(ctx, counter);
    let changes = 0;
    comments.subscribe(() => changes++);

    const first = comments.add(OUTPUT, '  Lovely light. @Bob what do you think?  ', MEMBERS);
    ctx.clock.now += 1_000;
    comments.add(CELL, 'On a cell', MEMBERS);
    ctx.clock.now += 1_000;
    const reply = comments.reply(first, 'Agreed', MEMBERS);

    const [thread, ...others] = comments.threads(OUTPUT);
    expect(others).toEqual([]);
    expect(thread!.root).toMatchObject({
      id: first,
      author: 'key_ann',
      body: 'Lovely light. @Bob what do you think?',
      mentions: ['key_bob'],
      parentId: null,
      target: OUTPUT,
    });
    expect(thread!.replies.map((r) => [r.id, r.parentId, r.body])).toEqual([[reply, first, 'Agreed']]);
    expect(thread!.resolved).toBe(false);
    expect(comments.threads(CELL)).toHaveLength(1);

    ctx.clock.now += 1_000;
    comments.resolve(reply); // a reply's thread is resolved on its first comment
    expect(comments.threads(OUTPUT)[0]).toMatchObject({
      resolved: true,
      resolution: { resolved: true, by: 'key_ann', at: ctx.clock.now },
    });
    comments.reopen(first);
    expect(comments.threads(OUTPUT)[0]!.resolved).toBe(false);
    expect(changes).toBe(5);
  });

  it('refuses an empty or too long body, and keeps a body as text', () => {
    const comments = new TeamComments(teamContext('key_ann'), counter);
    expect(() => comments.add(OUTPUT, '   ')).toThrow(CommentInputError);
    expect(() => comments.add(OUTPUT, 'x'.repeat(4_001))).toThrow(CommentInputError);
    expect(() => comments.add({ kind: 'output', outputKey: 'no-index' }, 'hi')).toThrow();
    const id = comments.add(OUTPUT, 'x'.repeat(4_000));
    expect(comments.get(id)?.body).toHaveLength(4_000);
  });

  it('deletes only its own comments; a first comment with replies stays as a placeholder', () => {
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob', ann.doc);
    const annComments = new TeamComments(ann, counter);
    const bobComments = new TeamComments(bob, counter);
    const first = annComments.add(OUTPUT, 'First');
    const reply = bobComments.reply(first, 'Reply');
    annComments.delete(reply); // not Ann's
    expect(annComments.get(reply)).toBeDefined();
    annComments.delete(first);
    expect(annComments.threads(OUTPUT)[0]!.root).toMatchObject({ deleted: true, body: '' });
    bobComments.delete(reply);
    // The placeholder without replies is no thread any more.
    expect(annComments.threads(OUTPUT)).toEqual([]);
  });

  it('ignores what does not parse: a plain value, a body over the limit, an id under another key', () => {
    const ctx = teamContext('key_ann');
    const root = ctx.doc.getMap(ROOTS.comments);
    root.set('junk', { body: 'not a Y.Map' });
    const long = new Y.Map<unknown>();
    for (const [k, v] of Object.entries({
      id: 'long',
      target: OUTPUT,
      author: 'key_eve',
      body: 'x'.repeat(5_000),
      createdAt: 1,
    }))
      long.set(k, v);
    root.set('long', long);
    const liar = new Y.Map<unknown>();
    for (const [k, v] of Object.entries({
      id: 'other',
      target: OUTPUT,
      author: 'key_eve',
      body: 'hi',
      createdAt: 1,
    }))
      liar.set(k, v);
    root.set('liar', liar);
    const comments = new TeamComments(ctx, counter);
    expect(comments.snapshot()).toEqual([]);
  });

  it('two copies merge concurrent replies and a concurrent resolve and reopen to the same thread', () => {
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob');
    const annComments = new TeamComments(ann);
    const bobComments = new TeamComments(bob);
    const first = annComments.add(OUTPUT, 'Which is better?', MEMBERS);
    sync(ann.doc, bob.doc);
    expect(bobComments.threads(OUTPUT)[0]!.root.body).toBe('Which is better?');

    // Offline from each other: both reply, Ann resolves, Bob reopens after resolving.
    ann.clock.now += 1_000;
    bob.clock.now += 2_000;
    annComments.reply(first, 'The left one', MEMBERS);
    bobComments.reply(first, 'The right one, @Ann Lee?', MEMBERS);
    annComments.resolve(first);
    bobComments.resolve(first);
    bobComments.reopen(first);
    sync(ann.doc, bob.doc);

    const a = annComments.threads(OUTPUT);
    const b = bobComments.threads(OUTPUT);
    expect(a).toEqual(b);
    expect(a).toHaveLength(1);
    expect(a[0]!.replies.map((r) => r.body)).toEqual(['The left one', 'The right one, @Ann Lee?']);
    expect(a[0]!.replies[1]!.mentions).toEqual(['key_annlee']);
    // One of the two writers won, whole: resolved by Ann, or reopened by Bob.
    const r = a[0]!.resolution!;
    expect([
      [true, 'key_ann'],
      [false, 'key_bob'],
    ]).toContainEqual([r.resolved, r.by]);
    expect(Y.encodeStateAsUpdate(ann.doc)).toEqual(Y.encodeStateAsUpdate(bob.doc));
  });
});

describe('mentions', () => {
  it('resolves "@Display name" against the members, names with spaces first', () => {
    expect(parseMentions('@Ann Lee and @ann, and @Bob.', MEMBERS)).toEqual([
      'key_annlee',
      'key_ann',
      'key_bob',
    ]);
    expect(parseMentions('@Anna is nobody; mail ann@Bob.test', MEMBERS)).toEqual([]);
    expect(parseMentions('no one here @', MEMBERS)).toEqual([]);
  });

  it('matches a name that looks like HTML as plain text, never as markup or a pattern', () => {
    const body = 'Hi @<img src=x onerror=alert(1)> look';
    expect(parseMentions(body, MEMBERS)).toEqual(['key_eve']);
    expect(splitMentions(body, MEMBERS)).toEqual([
      { text: 'Hi ', mention: false },
      { text: '@<img src=x onerror=alert(1)>', mention: true },
      { text: ' look', mention: false },
    ]);
    expect(parseMentions('@a.b', [{ id: 'k', name: 'a.*' }])).toEqual([]);
  });

  it('mentions both members who share a name, and skips empty names', () => {
    const spans = mentionSpans('@Sam', [
      { id: 'k1', name: 'Sam' },
      { id: 'k2', name: 'sam ' },
      { id: 'k3', name: '  ' },
    ]);
    expect(spans).toEqual([{ start: 0, end: 4, memberIds: ['k1', 'k2'] }]);
  });
});

describe('comment notices', () => {
  it('tells of a comment by another member on my output once; my own never', () => {
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob', ann.doc);
    const annComments = new TeamComments(ann, counter);
    const bobComments = new TeamComments(bob, counter);
    const isMine = (key: string) => key === 'task_1#0';
    let seen = { upTo: ann.now(), recent: [] as Array<[string, number]> };

    annComments.add(OUTPUT, 'My own note');
    bobComments.add({ kind: 'output', outputKey: 'task_9#0' }, 'Not on yours');
    bob.clock.now += 1_000;
    bobComments.add(OUTPUT, 'Nice one');
    const notices = commentNotices(annComments.snapshot(), { memberId: 'key_ann', isMine, seen });
    expect(notices.map((n) => [n.comment.body, n.reasons, n.outputKey])).toEqual([
      ['Nice one', ['your-output'], 'task_1#0'],
    ]);

    seen = markSeen(
      seen,
      notices.map((n) => n.comment),
      ann.now() + 1_000,
    ) as typeof seen;
    expect(commentNotices(annComments.snapshot(), { memberId: 'key_ann', isMine, seen })).toEqual([]);
  });

  it('tells of a mention anywhere, and of a comment from a slow clock once', () => {
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob', ann.doc);
    const annComments = new TeamComments(ann, counter);
    const bobComments = new TeamComments(bob, counter);
    const isMine = () => false;
    let seen = markSeen({ upTo: 0, recent: [] }, [], 0);
    bobComments.add(CELL, 'What do you say, @Ann?', MEMBERS);
    let notices = commentNotices(annComments.snapshot(), { memberId: 'key_ann', isMine, seen });
    expect(notices.map((n) => [n.reasons, n.outputKey])).toEqual([[['mention'], null]]);
    seen = markSeen(seen, [notices[0]!.comment], ann.now());

    // Bob's clock is 5 minutes behind: his next comment is stamped before what Ann has seen.
    bob.clock.now -= 5 * 60_000;
    bobComments.add(CELL, '@Ann again', MEMBERS);
    notices = commentNotices(annComments.snapshot(), { memberId: 'key_ann', isMine, seen });
    expect(notices.map((n) => n.comment.body)).toEqual(['@Ann again']);
    seen = markSeen(seen, [notices[0]!.comment], ann.now());
    expect(commentNotices(annComments.snapshot(), { memberId: 'key_ann', isMine, seen })).toEqual([]);
    expect(seen.upTo).toBe(ann.now());
    expect(seen.recent.every(([, at]) => at > seen.upTo - CLOCK_SLACK_MS)).toBe(true);
  });

  it('keeps the mark per member, parsed, and starts a new member from now', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(loadSeen(storage, 'key_ann', 500)).toEqual({ upTo: 500, recent: [] });
    saveSeen(storage, 'key_ann', { upTo: 900, recent: [['c1', 890]] });
    expect(loadSeen(storage, 'key_ann', 1_000)).toEqual({ upTo: 900, recent: [['c1', 890]] });
    expect(loadSeen(storage, 'key_bob', 1_000).upTo).toBe(1_000);
    store.set('media-studio:team-comments-seen:key_ann', '{"upTo":"soon"}');
    expect(loadSeen(storage, 'key_ann', 7).upTo).toBe(7);
  });
});

describe('convergence', () => {
  it('four members, random comments, replies, resolves and deletes, partitioned: every copy ends the same', () => {
    // A small seeded generator: the same run every time, and a failure can be replayed.
    let seed = 23;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const members = ['key_a', 'key_b', 'key_c', 'key_d'].map((id) => {
      const ctx = teamContext(id);
      return { ctx, comments: new TeamComments(ctx) };
    });
    const targets: CommentTarget[] = [OUTPUT, CELL];
    for (let step = 0; step < 400; step++) {
      const m = members[rand(members.length)]!;
      m.ctx.clock.now += rand(5_000);
      const all = m.comments.snapshot();
      const some = all.length ? all[rand(all.length)]! : null;
      const op = rand(8);
      if (op === 0 || op >= 5 || !some) m.comments.add(targets[rand(2)]!, `note ${step} @Ann`, MEMBERS);
      else if (op === 1) m.comments.reply(some.id, `reply ${step}`, MEMBERS);
      else if (op === 2) m.comments.resolve(some.id);
      else if (op === 3) m.comments.reopen(some.id);
      else if (op === 4) m.comments.delete(some.id);
      // A partial sync between two members now and then: the others stay apart for a while.
      if (rand(4) === 0) {
        const a = members[rand(members.length)]!;
        const b = members[rand(members.length)]!;
        if (a !== b) sync(a.ctx.doc, b.ctx.doc);
      }
    }
    for (const a of members) for (const b of members) if (a !== b) sync(a.ctx.doc, b.ctx.doc);
    const [first, ...rest] = members;
    for (const m of rest) {
      // The same edits, and the same content (the bytes may differ: each copy garbage-collects the
      // content of deleted comments when it learns of the delete, which may be before or after more
      // edits of theirs arrived).
      expect(Y.encodeStateVector(m.ctx.doc)).toEqual(Y.encodeStateVector(first!.ctx.doc));
      expect(m.ctx.doc.getMap(ROOTS.comments).toJSON()).toEqual(
        first!.ctx.doc.getMap(ROOTS.comments).toJSON(),
      );
      expect(m.comments.snapshot()).toEqual(first!.comments.snapshot());
      for (const t of targets) expect(m.comments.threads(t)).toEqual(first!.comments.threads(t));
    }
    expect(first!.comments.snapshot().length).toBeGreaterThan(20);
  });
});
