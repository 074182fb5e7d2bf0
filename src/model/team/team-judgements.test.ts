import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../db';
import { JudgementStore } from '../history/judgements';
import { sync, teamContext } from '../../test/team-test-context';
import { ROOTS } from './team-doc';
import { TeamJudgements, parseJudgementKey } from './team-judgements';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const judgements = (doc: Y.Doc) => doc.getMap(ROOTS.judgements);

describe('TeamJudgements: Team picks', () => {
  it('counts who starred an output and averages the ratings of those who rated it', () => {
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob');
    const annTeam = new TeamJudgements(ann);
    const bobTeam = new TeamJudgements(bob);
    const seen: number[] = [];
    bobTeam.subscribe(() => seen.push(bobTeam.snapshot().size));

    annTeam.setMine([{ outputKey: 't1#0', starred: true, rating: 5 }]);
    bobTeam.setMine([
      { outputKey: 't1#0', starred: true, rating: 4 },
      { outputKey: 't2#0', starred: false, rating: 2 },
    ]);
    sync(ann.doc, bob.doc);

    for (const store of [annTeam, bobTeam]) {
      expect(store.snapshot().get('t1#0')).toEqual({
        outputKey: 't1#0',
        starredBy: ['key_ann', 'key_bob'],
        averageRating: 4.5,
        ratings: 2,
      });
      expect(store.snapshot().get('t2#0')).toMatchObject({ starredBy: [], averageRating: 2, ratings: 1 });
    }
    expect(seen.length).toBeGreaterThan(0);

    // Ann unstars and clears her rating: her key is deleted, Bob's star stays.
    const before = bobTeam.snapshot();
    annTeam.setMine([{ outputKey: 't1#0', starred: false, rating: null }]);
    expect(judgements(ann.doc).has('key_ann|t1#0')).toBe(false);
    sync(ann.doc, bob.doc);
    expect(bobTeam.snapshot()).not.toBe(before);
    expect(bobTeam.snapshot().get('t1#0')).toMatchObject({
      starredBy: ['key_bob'],
      averageRating: 4,
      ratings: 1,
    });

    // Bob unstars too and rates nothing: the output leaves the picks.
    bobTeam.setMine([{ outputKey: 't1#0', starred: false, rating: null }]);
    expect(bobTeam.snapshot().has('t1#0')).toBe(false);
  });

  it('ignores values and keys that do not parse (another studio or a hostile client wrote them)', () => {
    const ctx = teamContext('key_ann');
    const map = judgements(ctx.doc);
    map.set('key_eve|t1#0', { starred: 'yes', rating: 9 });
    map.set('key_eve|not-an-output', { starred: true });
    map.set('no-bar', { starred: true });
    map.set('key_bob|t1#0', { starred: true, rating: 3, updatedAt: 5, extra: 'ignored' });
    const team = new TeamJudgements(ctx);
    expect([...team.snapshot().values()]).toEqual([
      { outputKey: 't1#0', starredBy: ['key_bob'], averageRating: 3, ratings: 1 },
    ]);
    map.set('key_bob|t1#0', '<script>');
    expect(team.snapshot().size).toBe(0);
  });

  it('parses keys at the first bar: the output key may hold one', () => {
    expect(parseJudgementKey('key_a|task|x#2')).toEqual({ memberId: 'key_a', outputKey: 'task|x#2' });
    expect(parseJudgementKey('|t#0')).toBeNull();
  });
});

describe('bridgeJudgements: the local store and the document', () => {
  it('a judgement newer on this device than the team’s (a change the server never got) goes there, not the older one back', async () => {
    const ctx = teamContext('key_ann');
    const team = new TeamJudgements(ctx);
    const local = await JudgementStore.open('conn-ann', { db, now: () => 5_000_000 });
    await local.setRating('t1#0', 5);
    // The team holds an older judgement of this member's (the copy with the newer one was dropped).
    team.setMine([{ outputKey: 't1#0', starred: false, rating: 2, updatedAt: 1 }]);
    const stop = team.bridge(local);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(local.snapshot().get('t1#0')).toMatchObject({ rating: 5 });
    expect(judgements(ctx.doc).get('key_ann|t1#0')).toMatchObject({ rating: 5 });
    stop();
  });

  it('mirrors a star and a rating made in the Gallery into the document, and an unstar deletes it', async () => {
    const ctx = teamContext('key_ann');
    const team = new TeamJudgements(ctx);
    const local = await JudgementStore.open('conn-ann', { db });
    const stop = team.bridge(local);

    await local.toggleStar('t1#0');
    await local.setRating('t1#0', 4);
    expect(judgements(ctx.doc).get('key_ann|t1#0')).toMatchObject({ starred: true, rating: 4 });
    expect(team.snapshot().get('t1#0')).toMatchObject({ starredBy: ['key_ann'], averageRating: 4 });

    await local.setStarred(['t1#0'], false);
    await local.setRating('t1#0', null);
    expect(judgements(ctx.doc).has('key_ann|t1#0')).toBe(false);

    stop();
    await local.toggleStar('t2#0');
    expect(judgements(ctx.doc).size).toBe(0);
  });

  it('brings a judgement from another device of the same member back into the local store', async () => {
    const laptop = teamContext('key_ann');
    const phone = teamContext('key_ann');
    const laptopTeam = new TeamJudgements(laptop);
    const phoneTeam = new TeamJudgements(phone);
    const laptopLocal = await JudgementStore.open('conn-laptop', { db });
    const phoneLocal = await JudgementStore.open('conn-phone', { db });
    laptopTeam.bridge(laptopLocal);
    phoneTeam.bridge(phoneLocal);

    // Bringing it back is not an edit of the laptop's: nothing goes back to the document.
    const laptopEdits: unknown[] = [];
    laptop.doc.on('update', (_u: Uint8Array, origin: unknown) => {
      if (origin === laptop.origin) laptopEdits.push(origin);
    });
    await phoneLocal.setRating('t1#0', 3);
    await phoneLocal.toggleStar('t1#0');
    sync(laptop.doc, phone.doc);
    expect(laptopLocal.get('t1#0')).toMatchObject({ starred: true, rating: 3 });
    expect(laptopEdits).toEqual([]);

    await laptopLocal.setStarred(['t1#0'], false);
    await laptopLocal.setRating('t1#0', null);
    sync(laptop.doc, phone.doc);
    expect(phoneLocal.get('t1#0')).toBeUndefined();
  });

  it("does not bring another member's judgements into this member's local store", async () => {
    const ann = teamContext('key_ann');
    const bob = teamContext('key_bob');
    const annTeam = new TeamJudgements(ann);
    const bobTeam = new TeamJudgements(bob);
    const annLocal = await JudgementStore.open('conn-ann', { db });
    annTeam.bridge(annLocal);
    bobTeam.setMine([{ outputKey: 't1#0', starred: true, rating: 5 }]);
    sync(ann.doc, bob.doc);
    expect(annLocal.snapshot().size).toBe(0);
    expect(annTeam.snapshot().get('t1#0')?.starredBy).toEqual(['key_bob']);
  });

  it('shares what the device judged before only when told to; the newer side wins at the start', async () => {
    const local = await JudgementStore.open('conn-ann', { db });
    await local.toggleStar('old#0');
    await local.setRating('both#0', 2);

    const quiet = teamContext('key_ann');
    new TeamJudgements(quiet).bridge(local);
    expect(judgements(quiet.doc).size).toBe(0);

    const ctx = teamContext('key_ann');
    const team = new TeamJudgements(ctx);
    // The document holds an older judgement of both#0 (from another device, before this one's).
    team.setMine([{ outputKey: 'both#0', starred: true, rating: 5, updatedAt: 0 }]);
    team.bridge(local, { shareExisting: true });
    expect(judgements(ctx.doc).get('key_ann|old#0')).toMatchObject({ starred: true });
    expect(judgements(ctx.doc).get('key_ann|both#0')).toMatchObject({ starred: false, rating: 2 });
    expect(local.get('both#0')).toMatchObject({ starred: false, rating: 2 });
  });
});

describe('convergence', () => {
  it('four members starring and rating at random, partitioned: every copy ends with the same picks', () => {
    let seed = 5;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const members = ['key_a', 'key_b', 'key_c', 'key_d'].map((id) => {
      const ctx = teamContext(id);
      return { ctx, team: new TeamJudgements(ctx) };
    });
    for (let step = 0; step < 300; step++) {
      const m = members[rand(members.length)]!;
      const rating = rand(6);
      m.team.setMine([
        { outputKey: `t${rand(6)}#0`, starred: rand(2) === 1, rating: rating === 0 ? null : rating },
      ]);
      if (rand(4) === 0) {
        const a = members[rand(members.length)]!;
        const b = members[rand(members.length)]!;
        if (a !== b) sync(a.ctx.doc, b.ctx.doc);
      }
    }
    for (const a of members) for (const b of members) if (a !== b) sync(a.ctx.doc, b.ctx.doc);
    const [first, ...rest] = members;
    for (const m of rest) expect([...m.team.snapshot()].sort()).toEqual([...first!.team.snapshot()].sort());
    // The picks are what the document holds, counted afresh.
    const fresh = new TeamJudgements(first!.ctx);
    expect([...fresh.snapshot()].sort()).toEqual([...first!.team.snapshot()].sort());
    expect(first!.team.snapshot().size).toBeGreaterThan(0);
  });
});
