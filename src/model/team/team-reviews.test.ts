import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../db';
import { ReviewStore } from '../history/reviews';
import { sync, teamContext } from '../../test/team-test-context';
import { ROOTS } from './team-doc';
import { TeamReviews } from './team-reviews';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const reviews = (doc: Y.Doc) => doc.getMap(ROOTS.reviews);
/** A room whose server keeps reviews (schema version 4), as the server's migration stamps it. */
const roomOf = (doc: Y.Doc, version = 4) => doc.getMap(ROOTS.meta).set('schemaVersion', version);

/** Two members' contexts in rooms of the version given (the same room once synced). */
function members(version = 4) {
  const ann = teamContext('key_ann');
  const bob = teamContext('key_bob');
  roomOf(ann.doc, version);
  roomOf(bob.doc, version);
  return { ann, bob };
}

describe('TeamReviews: everyone’s reviews', () => {
  it('reads two members’ reviews of one output, each with who, what, the note and when, newest first', () => {
    const { ann, bob } = members();
    const annTeam = new TeamReviews(ann);
    const bobTeam = new TeamReviews(bob);
    const heard: number[] = [];
    bobTeam.subscribe(() => heard.push(bobTeam.snapshot().size));

    ann.clock.now = 100;
    expect(annTeam.setMine([{ outputKey: 't1#0', review: { state: 'approved', note: 'Lovely' } }])).toBe(
      true,
    );
    bob.clock.now = 200;
    bobTeam.setMine([{ outputKey: 't1#0', review: { state: 'changes', note: 'Sky too blue' } }]);
    sync(ann.doc, bob.doc);

    for (const team of [annTeam, bobTeam]) {
      expect(team.snapshot().get('t1#0')).toEqual([
        { memberId: 'key_bob', state: 'changes', note: 'Sky too blue', at: 200 },
        { memberId: 'key_ann', state: 'approved', note: 'Lovely', at: 100 },
      ]);
    }
    expect(heard.length).toBeGreaterThan(0);
    expect(annTeam.mine()).toEqual(
      new Map([['t1#0', { memberId: 'key_ann', state: 'approved', note: 'Lovely', at: 100 }]]),
    );

    // Ann takes hers back: her key is deleted, Bob's stays.
    annTeam.setMine([{ outputKey: 't1#0', review: null }]);
    expect(reviews(ann.doc).has('key_ann|t1#0')).toBe(false);
    sync(ann.doc, bob.doc);
    expect(
      bobTeam
        .snapshot()
        .get('t1#0')
        ?.map((r) => r.memberId),
    ).toEqual(['key_bob']);
  });

  it('writes only under this member’s own key: an output key naming another member stays this member’s', () => {
    const { ann } = members();
    const team = new TeamReviews(ann);
    team.setMine([
      { outputKey: 'key_bob|t1#0', review: { state: 'rejected', note: '' } },
      { outputKey: 'not-an-output', review: { state: 'rejected', note: '' } },
    ]);
    expect([...reviews(ann.doc).keys()]).toEqual(['key_ann|key_bob|t1#0']);
    expect(team.get('key_bob', 't1#0')).toBeUndefined();
    expect(team.get('key_ann', 'key_bob|t1#0')).toMatchObject({ state: 'rejected' });
    // Taking back only ever removes this member's key.
    reviews(ann.doc).set('key_bob|t1#0', { state: 'approved', note: '', at: 1 });
    team.setMine([{ outputKey: 't1#0', review: null }]);
    expect(reviews(ann.doc).has('key_bob|t1#0')).toBe(true);
  });

  it('writes nothing in a room below version 4 (its server would refuse the unknown root)', () => {
    const { ann } = members(3);
    const team = new TeamReviews(ann);
    expect(team.shared()).toBe(false);
    expect(team.setMine([{ outputKey: 't1#0', review: { state: 'approved', note: '' } }])).toBe(false);
    expect(reviews(ann.doc).size).toBe(0);
  });

  it('skips values and keys that do not parse (another studio or a hostile client wrote them)', () => {
    const { ann } = members();
    const map = reviews(ann.doc);
    map.set('key_eve|t1#0', { state: 'maybe', note: '', at: 1 });
    map.set('key_eve|t2#0', { state: 'approved', note: 'x'.repeat(2_001), at: 1 });
    map.set('key_eve|t3#0', { state: 'approved', note: '', at: -5 });
    map.set('key_eve|not-an-output', { state: 'approved', note: '', at: 1 });
    map.set('no-bar', { state: 'approved', note: '', at: 1 });
    map.set('key_mal|t1#0', '<img src=x onerror=alert(1)>');
    map.set('key_bob|t1#0', { state: 'rejected', note: '<img src=x onerror=alert(1)>', at: 3, extra: 1 });
    const team = new TeamReviews(ann);
    expect([...team.snapshot()]).toEqual([
      ['t1#0', [{ memberId: 'key_bob', state: 'rejected', note: '<img src=x onerror=alert(1)>', at: 3 }]],
    ]);
    map.set('key_bob|t1#0', { state: 42 });
    expect(team.snapshot().size).toBe(0);
  });
});

describe('TeamReviews.bridge: the local store and the document', () => {
  it('a review made on this device goes to the team under this member’s key, and taking it back removes it', async () => {
    const { ann } = members();
    const team = new TeamReviews(ann);
    const local = await ReviewStore.open('conn-ann', { db, now: () => 500 });
    const stop = team.bridge(local);
    await local.set('t1#0', { state: 'approved', note: 'Ship it' });
    expect(reviews(ann.doc).get('key_ann|t1#0')).toEqual({ state: 'approved', note: 'Ship it', at: 500 });
    await local.clear(['t1#0']);
    expect(reviews(ann.doc).has('key_ann|t1#0')).toBe(false);
    stop();
    await local.set('t2#0', { state: 'rejected' });
    expect(reviews(ann.doc).has('key_ann|t2#0')).toBe(false);
  });

  it('a review from another of this member’s devices comes back to this one, with its time; another member’s does not', async () => {
    const laptop = teamContext('key_ann');
    const phone = teamContext('key_ann');
    const bob = teamContext('key_bob');
    for (const c of [laptop, phone, bob]) roomOf(c.doc);
    const laptopLocal = await ReviewStore.open('conn-laptop', { db });
    const phoneLocal = await ReviewStore.open('conn-phone', { db, now: () => 700 });
    new TeamReviews(laptop).bridge(laptopLocal);
    new TeamReviews(phone).bridge(phoneLocal);
    new TeamReviews(bob).setMine([{ outputKey: 't9#0', review: { state: 'rejected', note: '' } }]);

    await phoneLocal.set('t1#0', { state: 'changes', note: 'Warmer' });
    sync(phone.doc, laptop.doc);
    sync(bob.doc, laptop.doc);
    await Promise.resolve();
    expect(laptopLocal.list()).toEqual([{ outputKey: 't1#0', state: 'changes', note: 'Warmer', at: 700 }]);

    await phoneLocal.clear(['t1#0']);
    sync(phone.doc, laptop.doc);
    await Promise.resolve();
    expect(laptopLocal.list()).toEqual([]);
  });

  it('at the start the newer side wins; what only this device holds is shared when the member says so', async () => {
    const { ann } = members();
    const team = new TeamReviews(ann);
    ann.clock.now = 300;
    team.setMine([
      { outputKey: 't1#0', review: { state: 'approved', note: 'from the team' } },
      { outputKey: 't2#0', review: { state: 'approved', note: 'older there', at: 10 } },
    ]);
    const local = await ReviewStore.open('conn-ann', { db, now: () => 100 });
    await local.set('t1#0', { state: 'rejected' });
    await local.set('t2#0', { state: 'changes', note: 'newer here', at: 50 });
    await local.set('t3#0', { state: 'approved', note: 'only here' });

    const stop = team.bridge(local);
    expect(local.get('t1#0')).toMatchObject({ state: 'approved', note: 'from the team', at: 300 });
    expect(reviews(ann.doc).get('key_ann|t2#0')).toEqual({ state: 'changes', note: 'newer here', at: 50 });
    expect(reviews(ann.doc).has('key_ann|t3#0')).toBe(false);
    stop();
    team.bridge(local, { shareExisting: true });
    expect(reviews(ann.doc).get('key_ann|t3#0')).toEqual({ state: 'approved', note: 'only here', at: 100 });
  });

  it('a review made before the room’s version is known goes to the team once the room says it keeps reviews', async () => {
    const ann = teamContext('key_ann');
    const local = await ReviewStore.open('conn-ann', { db, now: () => ann.clock.now });
    await local.set('t0#0', { state: 'rejected', at: ann.clock.now - 1 });
    new TeamReviews(ann).bridge(local);
    await local.set('t1#0', { state: 'approved', note: 'meanwhile' });
    expect(reviews(ann.doc).size).toBe(0);
    // The server's copy arrives, stamped with version 4.
    roomOf(ann.doc);
    expect([...reviews(ann.doc).entries()]).toEqual([
      ['key_ann|t1#0', { state: 'approved', note: 'meanwhile', at: ann.clock.now }],
    ]);
  });

  it('in a room below version 4 the review stays on this device', async () => {
    const { ann } = members(3);
    const local = await ReviewStore.open('conn-ann', { db });
    new TeamReviews(ann).bridge(local, { shareExisting: true });
    await local.set('t1#0', { state: 'approved' });
    expect(local.get('t1#0')?.state).toBe('approved');
    expect(reviews(ann.doc).size).toBe(0);
  });
});
