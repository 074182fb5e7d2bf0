import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../db';
import { JudgementStore } from '../history/judgements';
import { sync, teamContext, type TestContext } from '../../test/team-test-context';
import type { CommentTarget } from './comment-types';
import { EarlierSaid } from './team-attached';
import { TeamComments } from './team-comments';
import { ROOTS } from './team-doc';
import { TeamJudgements } from './team-judgements';

// Judgements and comments the server moves out of the room with earlier tasks (team-attached.ts): a
// member of this version never deletes either, so a deletion is the move and what was shown stays; the
// pages of earlier tasks bring the rest.

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

/** The room's copy on the server, at a schema version, and a member's copy synced with it. */
function room(version: number) {
  const server = new Y.Doc();
  server.getMap(ROOTS.meta).set('schemaVersion', version);
  const member = (id: string) => {
    const ctx = teamContext(id);
    sync(server, ctx.doc);
    return ctx;
  };
  /** The server's move: deletes these keys of a root in one transaction of its own. */
  const move = (root: 'judgements' | 'comments', keys: string[], to: TestContext[]) => {
    for (const ctx of to) sync(server, ctx.doc);
    server.transact(() => {
      for (const key of keys) server.getMap(root).delete(key);
    }, 'server-archive');
    for (const ctx of to) sync(server, ctx.doc);
  };
  return { server, member, move };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('judgements of earlier tasks', () => {
  it('an un-star in a room that moves judgements writes a blank judgement, never a deletion', () => {
    const { member } = room(3);
    const ann = member('key_ann');
    const team = new TeamJudgements(ann);
    team.setMine([{ outputKey: 't1#0', starred: true, rating: 4 }]);
    team.setMine([{ outputKey: 't1#0', starred: false, rating: null }]);
    expect(ann.doc.getMap(ROOTS.judgements).get('key_ann|t1#0')).toMatchObject({
      starred: false,
      rating: null,
    });
    expect(team.snapshot().has('t1#0')).toBe(false);
  });

  it('the server’s move keeps the picks shown and the member’s own star on their device; in an older room a deletion is an un-star', async () => {
    for (const version of [3, 2]) {
      const { member, move } = room(version);
      const ann = member('key_ann');
      const bob = member('key_bob');
      const annTeam = new TeamJudgements(ann);
      const bobTeam = new TeamJudgements(bob);
      const local = await JudgementStore.open(`conn-ann-${version}`, { db });
      const stop = annTeam.bridge(local);
      await local.toggleStar('t1#0');
      bobTeam.setMine([{ outputKey: 't1#0', starred: true, rating: 2 }]);
      sync(ann.doc, bob.doc);

      move('judgements', ['key_ann|t1#0', 'key_bob|t1#0'], [ann, bob]);
      await settle();
      if (version === 3) {
        expect(annTeam.snapshot().get('t1#0')?.starredBy).toEqual(['key_ann', 'key_bob']);
        expect(bobTeam.snapshot().get('t1#0')?.averageRating).toBe(2);
        expect(local.get('t1#0')).toMatchObject({ starred: true });
      } else {
        // The control: the same deletion where it means an un-star (a studio of version 2 deletes).
        expect(annTeam.snapshot().has('t1#0')).toBe(false);
        expect(local.get('t1#0')).toBeUndefined();
      }
      stop();
    }
  });

  it('a page brings moved judgements into the picks; the document’s own key wins, and an un-star of a moved star overrides it', () => {
    const { member } = room(3);
    const said = new EarlierSaid();
    const ann = member('key_ann');
    const team = new TeamJudgements(ann, undefined, said);
    said.add([
      {
        taskId: 'old',
        judgements: {
          'key_ann|old#0': { starred: true, rating: 5, updatedAt: 1 },
          'key_bob|old#0': { starred: true, rating: 3, updatedAt: 1 },
          'key_eve|old#0': { starred: 'yes' },
        },
        comments: {},
      },
    ]);
    expect(team.snapshot().get('old#0')).toEqual({
      outputKey: 'old#0',
      starredBy: ['key_ann', 'key_bob'],
      averageRating: 4,
      ratings: 2,
    });
    team.setMine([{ outputKey: 'old#0', starred: false, rating: null }]);
    expect(ann.doc.getMap(ROOTS.judgements).get('key_ann|old#0')).toMatchObject({ starred: false });
    expect(team.snapshot().get('old#0')).toMatchObject({ starredBy: ['key_bob'], averageRating: 3 });
  });

  it('this member’s moved stars reach a device that lacks them as their page is read, unless it changed them since', async () => {
    const { member } = room(3);
    const said = new EarlierSaid();
    const phone = member('key_ann');
    const team = new TeamJudgements(phone, undefined, said);
    const local = await JudgementStore.open('conn-phone', { db, now: () => 5_000_000 });
    await local.setRating('b#0', 1);
    const stop = team.bridge(local);
    said.add([
      {
        taskId: 'a',
        judgements: { 'key_ann|a#0': { starred: true, rating: 4, updatedAt: 10 } },
        comments: {},
      },
      {
        taskId: 'b',
        judgements: { 'key_ann|b#0': { starred: true, rating: 5, updatedAt: 10 } },
        comments: {},
      },
      {
        taskId: 'c',
        judgements: { 'key_bob|c#0': { starred: true, rating: 5, updatedAt: 10 } },
        comments: {},
      },
    ]);
    await settle();
    expect(local.get('a#0')).toMatchObject({ starred: true, rating: 4 });
    expect(local.get('b#0')).toMatchObject({ starred: false, rating: 1 });
    expect(local.get('c#0')).toBeUndefined();
    stop();
  });
});

describe('comments of earlier tasks', () => {
  const OUTPUT: CommentTarget = { kind: 'output', outputKey: 'old#0' };

  it('deleting in a room that moves comments leaves a placeholder, shown only while it has replies', () => {
    const { member } = room(3);
    const ann = member('key_ann');
    const comments = new TeamComments(ann);
    const lone = comments.add(OUTPUT, 'first');
    const root = comments.add(OUTPUT, 'second');
    const reply = comments.reply(root, 'an answer');
    comments.delete(lone);
    comments.delete(reply);
    const map = ann.doc.getMap(ROOTS.comments);
    expect([...map.keys()].sort()).toEqual([lone, root, reply].sort());
    expect(comments.threads(OUTPUT).map((t) => [t.root.body, t.replies.length])).toEqual([['second', 0]]);
  });

  it('the server’s move keeps a thread shown, still answered, no longer resolved or deleted', () => {
    const { member, move } = room(3);
    const ann = member('key_ann');
    const bob = member('key_bob');
    const annComments = new TeamComments(ann);
    const bobComments = new TeamComments(bob);
    const root = annComments.add(OUTPUT, 'is this the one?');
    const reply = annComments.reply(root, 'yes');
    sync(ann.doc, bob.doc);

    move('comments', [root, reply], [ann, bob]);
    for (const comments of [annComments, bobComments]) {
      const [thread] = comments.threads(OUTPUT);
      expect(thread?.root.body).toBe('is this the one?');
      expect(thread?.replies.map((r) => r.body)).toEqual(['yes']);
      expect(comments.isEarlier(root)).toBe(true);
    }
    // An answer is a comment of the document's, in the same thread.
    bob.clock.now += 1_000;
    bobComments.reply(root, 'agreed');
    sync(ann.doc, bob.doc);
    expect(annComments.threads(OUTPUT)[0]?.replies.map((r) => r.body)).toEqual(['yes', 'agreed']);
    expect(annComments.isEarlier(annComments.threads(OUTPUT)[0]!.replies[1]!.id)).toBe(false);
    // Its first comment is no longer in the document to write.
    annComments.resolve(root);
    annComments.delete(root);
    expect(annComments.threads(OUTPUT)[0]?.resolved).toBe(false);
    expect(annComments.threads(OUTPUT)[0]?.root.deleted).toBe(false);
  });

  it('a page brings moved threads, read with the contract: a comment that does not parse is left out', () => {
    const { member } = room(3);
    const said = new EarlierSaid();
    const comments = new TeamComments(member('key_bob'), undefined, said);
    const comment = (id: string, more: Record<string, unknown> = {}) => ({
      id,
      target: OUTPUT,
      parentId: null,
      author: 'key_ann',
      body: `said ${id}`,
      mentions: [],
      createdAt: 5,
      ...more,
    });
    said.add([
      {
        taskId: 'old',
        comments: {
          c1: comment('c1'),
          c2: comment('c2', { parentId: 'c1', createdAt: 6 }),
          c3: comment('c3', { body: 'x'.repeat(5_000) }),
          c4: comment('elsewhere'),
        },
        judgements: {},
      },
    ]);
    const threads = comments.threads(OUTPUT);
    expect(threads.map((t) => [t.root.id, t.replies.map((r) => r.id)])).toEqual([['c1', ['c2']]]);
  });
});
