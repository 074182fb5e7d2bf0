import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../db';
import { TagStore, tagsByOutput } from '../history/tags';
import { sync, teamContext } from '../../test/team-test-context';
import { ROOTS } from './team-doc';
import { TeamTags } from './team-tags';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const tags = (doc: Y.Doc) => doc.getMap(ROOTS.tags);
/** A room whose server keeps tags (schema version 5), as the server's migration stamps it. */
const roomOf = (doc: Y.Doc, version = 5) => doc.getMap(ROOTS.meta).set('schemaVersion', version);

/** Two members' contexts in rooms of the version given (the same room once synced). */
function members(version = 5) {
  const ann = teamContext('key_ann');
  const bob = teamContext('key_bob');
  roomOf(ann.doc, version);
  roomOf(bob.doc, version);
  return { ann, bob };
}

describe('TeamTags: everyone’s tags', () => {
  it('reads two members’ tags of one output, each with who and when, newest first; the search sees their union', () => {
    const { ann, bob } = members();
    const annTeam = new TeamTags(ann);
    const bobTeam = new TeamTags(bob);
    const heard: number[] = [];
    bobTeam.subscribe(() => heard.push(bobTeam.snapshot().size));

    ann.clock.now = 100;
    expect(annTeam.setMine([{ outputKey: 't1#0', tags: ['cat', 'night'] }])).toBe(true);
    bob.clock.now = 200;
    bobTeam.setMine([{ outputKey: 't1#0', tags: ['night', 'blue'] }]);
    sync(ann.doc, bob.doc);

    for (const team of [annTeam, bobTeam]) {
      expect(team.snapshot().get('t1#0')).toEqual([
        { memberId: 'key_bob', tags: ['night', 'blue'], at: 200 },
        { memberId: 'key_ann', tags: ['cat', 'night'], at: 100 },
      ]);
    }
    expect(heard.length).toBeGreaterThan(0);
    expect(tagsByOutput(new Map([['t1#0', ['cat', 'night']]]), annTeam.snapshot()).get('t1#0')).toEqual([
      'cat',
      'night',
      'blue',
    ]);

    // Ann takes hers away: her key is deleted, Bob's stays.
    annTeam.setMine([{ outputKey: 't1#0', tags: [] }]);
    expect(tags(ann.doc).has('key_ann|t1#0')).toBe(false);
    sync(ann.doc, bob.doc);
    expect(
      bobTeam
        .snapshot()
        .get('t1#0')
        ?.map((r) => r.memberId),
    ).toEqual(['key_bob']);
  });

  it('writes only under this member’s own key, each list cleaned to the contract’s bounds', () => {
    const { ann } = members();
    const team = new TeamTags(ann);
    team.setMine([
      { outputKey: 'key_bob|t1#0', tags: ['x'] },
      { outputKey: 'not-an-output', tags: ['x'] },
      { outputKey: 't2#0', tags: [...Array.from({ length: 25 }, (_, i) => `t${i}`), 'Not Clean'] },
    ]);
    expect([...tags(ann.doc).keys()].sort()).toEqual(['key_ann|key_bob|t1#0', 'key_ann|t2#0']);
    expect((tags(ann.doc).get('key_ann|t2#0') as { tags: string[] }).tags).toHaveLength(20);
    expect(team.get('key_bob', 't1#0')).toBeUndefined();
    // Taking away only ever removes this member's key.
    tags(ann.doc).set('key_bob|t1#0', { tags: ['dog'], at: 1 });
    team.setMine([{ outputKey: 't1#0', tags: null }]);
    expect(tags(ann.doc).has('key_bob|t1#0')).toBe(true);
  });

  it('writes nothing in a room below version 5 (its server would refuse the unknown root)', () => {
    const { ann } = members(4);
    const team = new TeamTags(ann);
    expect(team.shared()).toBe(false);
    expect(team.setMine([{ outputKey: 't1#0', tags: ['cat'] }])).toBe(false);
    expect(tags(ann.doc).size).toBe(0);
  });

  it('skips values and keys that do not parse, and tags not in their kept form (another studio or a hostile client wrote them)', () => {
    const { ann } = members();
    const map = tags(ann.doc);
    map.set('key_eve|t1#0', { tags: 'cat', at: 1 });
    map.set('key_eve|t2#0', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`), at: 1 });
    map.set('key_eve|t3#0', { tags: ['cat'], at: -5 });
    map.set('key_eve|not-an-output', { tags: ['cat'], at: 1 });
    map.set('no-bar', { tags: ['cat'], at: 1 });
    map.set('key_mal|t1#0', '<img src=x onerror=alert(1)>');
    map.set('key_mal|t4#0', { tags: ['<img src=x onerror=alert(1)>'], at: 1 });
    map.set('key_bob|t1#0', { tags: ['dog', 'Dog', '<b>', 'dog'], at: 3, extra: 1 });
    const team = new TeamTags(ann);
    expect([...team.snapshot()]).toEqual([['t1#0', [{ memberId: 'key_bob', tags: ['dog'], at: 3 }]]]);
    map.set('key_bob|t1#0', { tags: 42 });
    expect(team.snapshot().size).toBe(0);
  });
});

describe('TeamTags.bridge: the local store and the document', () => {
  it('a tag added on this device goes to the team under this member’s key, and removing it removes the key', async () => {
    const { ann } = members();
    const team = new TeamTags(ann);
    const local = await TagStore.open('conn-ann', { db, now: () => 500 });
    const stop = team.bridge(local);
    await local.add(['t1#0', 't2#0'], 'Cat');
    expect(tags(ann.doc).get('key_ann|t1#0')).toEqual({ tags: ['cat'], at: 500 });
    expect(tags(ann.doc).get('key_ann|t2#0')).toEqual({ tags: ['cat'], at: 500 });
    await local.remove(['t1#0'], 'cat');
    expect(tags(ann.doc).has('key_ann|t1#0')).toBe(false);
    stop();
    await local.add(['t3#0'], 'dog');
    expect(tags(ann.doc).has('key_ann|t3#0')).toBe(false);
  });

  it('tags from another of this member’s devices come back to this one, with their time; another member’s do not', async () => {
    const laptop = teamContext('key_ann');
    const phone = teamContext('key_ann');
    const bob = teamContext('key_bob');
    for (const c of [laptop, phone, bob]) roomOf(c.doc);
    const laptopLocal = await TagStore.open('conn-laptop', { db });
    const phoneLocal = await TagStore.open('conn-phone', { db, now: () => 700 });
    new TeamTags(laptop).bridge(laptopLocal);
    new TeamTags(phone).bridge(phoneLocal);
    new TeamTags(bob).setMine([{ outputKey: 't9#0', tags: ['bob'] }]);

    await phoneLocal.add(['t1#0'], 'warm');
    sync(phone.doc, laptop.doc);
    sync(bob.doc, laptop.doc);
    await Promise.resolve();
    expect(laptopLocal.list()).toEqual([{ outputKey: 't1#0', tags: ['warm'], at: 700 }]);

    await phoneLocal.remove(['t1#0'], 'warm');
    sync(phone.doc, laptop.doc);
    await Promise.resolve();
    expect(laptopLocal.list()).toEqual([]);
  });

  it('at the start the newer side wins; what only this device holds is shared when the member says so', async () => {
    const { ann } = members();
    const team = new TeamTags(ann);
    ann.clock.now = 300;
    team.setMine([
      { outputKey: 't1#0', tags: ['from-the-team'] },
      { outputKey: 't2#0', tags: ['older-there'], at: 10 },
    ]);
    const local = await TagStore.open('conn-ann', { db, now: () => 100 });
    await local.setTags('t1#0', ['here'], 100);
    await local.setTags('t2#0', ['newer-here'], 50);
    await local.setTags('t3#0', ['only-here'], 100);

    const stop = team.bridge(local);
    expect(local.records().get('t1#0')).toEqual({ outputKey: 't1#0', tags: ['from-the-team'], at: 300 });
    expect(tags(ann.doc).get('key_ann|t2#0')).toEqual({ tags: ['newer-here'], at: 50 });
    expect(tags(ann.doc).has('key_ann|t3#0')).toBe(false);
    stop();
    team.bridge(local, { shareExisting: true });
    expect(tags(ann.doc).get('key_ann|t3#0')).toEqual({ tags: ['only-here'], at: 100 });
  });

  it('tags added before the room’s version is known go to the team once the room says it keeps tags', async () => {
    const ann = teamContext('key_ann');
    const local = await TagStore.open('conn-ann', { db, now: () => ann.clock.now });
    await local.setTags('t0#0', ['before'], ann.clock.now - 1);
    new TeamTags(ann).bridge(local);
    await local.add(['t1#0'], 'meanwhile');
    expect(tags(ann.doc).size).toBe(0);
    // The server's copy arrives, stamped with version 5.
    roomOf(ann.doc);
    expect([...tags(ann.doc).entries()]).toEqual([
      ['key_ann|t1#0', { tags: ['meanwhile'], at: ann.clock.now }],
    ]);
  });

  it('in a room below version 5 the tags stay on this device', async () => {
    const { ann } = members(4);
    const local = await TagStore.open('conn-ann', { db });
    new TeamTags(ann).bridge(local, { shareExisting: true });
    await local.add(['t1#0'], 'cat');
    expect(local.get('t1#0')).toEqual(['cat']);
    expect(tags(ann.doc).size).toBe(0);
  });
});
