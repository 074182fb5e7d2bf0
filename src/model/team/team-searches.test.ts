import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { DB_NAME, db, resetDbForTests } from '../db';
import { SavedSearchStore, savedSearchesOf } from '../history/saved-searches';
import { sync, teamContext } from '../../test/team-test-context';
import { ROOTS } from './team-doc';
import { TeamSearches } from './team-searches';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const searches = (doc: Y.Doc) => doc.getMap(ROOTS.searches);
/** A room whose server keeps saved searches (schema version 5), as the server's migration stamps it. */
const roomOf = (doc: Y.Doc, version = 5) => doc.getMap(ROOTS.meta).set('schemaVersion', version);

function members(version = 5) {
  const ann = teamContext('key_ann');
  const bob = teamContext('key_bob');
  roomOf(ann.doc, version);
  roomOf(bob.doc, version);
  return { ann, bob };
}

/** A local store whose ids are `${prefix}1`, `${prefix}2`, ... */
async function localStore(connectionId: string, now: () => number, prefix = 's') {
  let n = 0;
  return SavedSearchStore.open(connectionId, { db, now, newId: () => `${prefix}${++n}` });
}

describe('TeamSearches: everyone’s saved searches', () => {
  it('shows each member’s saved searches to everyone with who saved them, newest first', () => {
    const { ann, bob } = members();
    const annTeam = new TeamSearches(ann);
    const bobTeam = new TeamSearches(bob);
    let heard = 0;
    bobTeam.subscribe(() => heard++);
    expect(annTeam.setMine([{ id: 'a1', search: { name: 'Cats', query: 'cat', at: 10 } }])).toBe(true);
    bobTeam.setMine([{ id: 'b1', search: { name: 'Dogs', query: 'dog', at: 20 } }]);
    sync(ann.doc, bob.doc);

    for (const team of [annTeam, bobTeam]) {
      expect(team.snapshot()).toEqual([
        { id: 'b1', name: 'Dogs', query: 'dog', by: 'key_bob', at: 20 },
        { id: 'a1', name: 'Cats', query: 'cat', by: 'key_ann', at: 10 },
      ]);
    }
    expect(heard).toBeGreaterThan(0);
    expect([...annTeam.mine().keys()]).toEqual(['a1']);
  });

  it('never writes over or deletes another member’s search (the server would refuse it)', () => {
    const { ann, bob } = members();
    new TeamSearches(bob).setMine([{ id: 'b1', search: { name: 'Dogs', query: 'dog', at: 20 } }]);
    sync(ann.doc, bob.doc);
    const annTeam = new TeamSearches(ann);
    annTeam.setMine([
      { id: 'b1', search: { name: 'Mine now', query: 'cat', at: 30 } },
      { id: 'a1', search: { name: 'x'.repeat(81), query: '', at: 30 } },
    ]);
    annTeam.setMine([{ id: 'b1', search: null }]);
    expect(searches(ann.doc).toJSON()).toEqual({ b1: { name: 'Dogs', query: 'dog', by: 'key_bob', at: 20 } });
  });

  it('writes nothing in a room below version 5 (its server would refuse the unknown root)', () => {
    const { ann } = members(4);
    const team = new TeamSearches(ann);
    expect(team.shared()).toBe(false);
    expect(team.setMine([{ id: 'a1', search: { name: 'Cats', query: 'cat', at: 1 } }])).toBe(false);
    expect(searches(ann.doc).size).toBe(0);
  });

  it('skips values that do not parse (another studio or a hostile client wrote them)', () => {
    const { ann } = members();
    const map = searches(ann.doc);
    map.set('e1', { name: '', query: 'x', by: 'key_eve', at: 1 });
    map.set('e2', { name: 'Long', query: 'q'.repeat(501), by: 'key_eve', at: 1 });
    map.set('e3', { name: 'No author', query: 'x', at: 1 });
    map.set('e4', '<img src=x onerror=alert(1)>');
    map.set('b1', { name: '<img src=x onerror=alert(1)>', query: 'dog', by: 'key_bob', at: 3, extra: 1 });
    const team = new TeamSearches(ann);
    expect(team.snapshot()).toEqual([
      { id: 'b1', name: '<img src=x onerror=alert(1)>', query: 'dog', by: 'key_bob', at: 3 },
    ]);
    map.set('b1', { name: 42 });
    expect(team.snapshot()).toEqual([]);
  });
});

describe('TeamSearches.bridge: the local store and the document', () => {
  it('a search saved, renamed and deleted here goes to the team in this member’s name', async () => {
    const { ann } = members();
    const team = new TeamSearches(ann);
    const local = await localStore('conn-ann', () => 500);
    const stop = team.bridge(local);
    await local.save('Cats', 'cat');
    expect(searches(ann.doc).get('s1')).toEqual({ name: 'Cats', query: 'cat', by: 'key_ann', at: 500 });
    await local.rename('s1', 'Night cats');
    expect(searches(ann.doc).get('s1')).toMatchObject({ name: 'Night cats' });
    await local.remove('s1');
    expect(searches(ann.doc).has('s1')).toBe(false);
    stop();
    await local.save('Dogs', 'dog');
    expect(searches(ann.doc).size).toBe(0);
  });

  it('a search from another of this member’s devices comes to this one; another member’s shows from the team only', async () => {
    const laptop = teamContext('key_ann');
    const phone = teamContext('key_ann');
    const bob = teamContext('key_bob');
    for (const c of [laptop, phone, bob]) roomOf(c.doc);
    const laptopLocal = await localStore('conn-laptop', () => 1, 'l');
    const phoneLocal = await localStore('conn-phone', () => 700, 'p');
    const laptopTeam = new TeamSearches(laptop);
    laptopTeam.bridge(laptopLocal);
    new TeamSearches(phone).bridge(phoneLocal);
    new TeamSearches(bob).setMine([{ id: 'b1', search: { name: 'Dogs', query: 'dog', at: 5 } }]);

    await phoneLocal.save('Foxes', 'fox');
    sync(phone.doc, laptop.doc);
    sync(bob.doc, laptop.doc);
    await Promise.resolve();
    expect(laptopLocal.snapshot()).toEqual([{ id: 'p1', name: 'Foxes', query: 'fox', at: 700 }]);
    expect(
      savedSearchesOf(laptopLocal.snapshot(), { searches: laptopTeam.snapshot(), memberId: 'key_ann' }).map(
        (s) => [s.name, s.by, s.mine],
      ),
    ).toEqual([
      ['Foxes', 'key_ann', true],
      ['Dogs', 'key_bob', false],
    ]);

    await phoneLocal.remove('p1');
    sync(phone.doc, laptop.doc);
    await Promise.resolve();
    expect(laptopLocal.snapshot()).toEqual([]);
  });

  it('at the start the newer side wins; what only this device holds is shared when the member says so', async () => {
    const { ann } = members();
    const team = new TeamSearches(ann);
    team.setMine([
      { id: 's1', search: { name: 'From the team', query: 'a', at: 300 } },
      { id: 's2', search: { name: 'Older there', query: 'b', at: 10 } },
    ]);
    const local = await localStore('conn-ann', () => 100);
    await local.put({ id: 's1', name: 'Here', query: 'a', at: 100 });
    await local.put({ id: 's2', name: 'Newer here', query: 'b', at: 50 });
    await local.put({ id: 's3', name: 'Only here', query: 'c', at: 100 });

    const stop = team.bridge(local);
    expect(local.get('s1')).toEqual({ id: 's1', name: 'From the team', query: 'a', at: 300 });
    expect(searches(ann.doc).get('s2')).toMatchObject({ name: 'Newer here', at: 50 });
    expect(searches(ann.doc).has('s3')).toBe(false);
    stop();
    team.bridge(local, { shareExisting: true });
    expect(searches(ann.doc).get('s3')).toEqual({ name: 'Only here', query: 'c', by: 'key_ann', at: 100 });
  });

  it('a search saved before the room’s version is known goes to the team once the room says it keeps them', async () => {
    const ann = teamContext('key_ann');
    const local = await localStore('conn-ann', () => ann.clock.now);
    await local.put({ id: 'old', name: 'Before', query: 'x', at: ann.clock.now - 1 });
    new TeamSearches(ann).bridge(local);
    await local.save('Meanwhile', 'y');
    expect(searches(ann.doc).size).toBe(0);
    roomOf(ann.doc);
    expect(searches(ann.doc).toJSON()).toEqual({
      s1: { name: 'Meanwhile', query: 'y', by: 'key_ann', at: ann.clock.now },
    });
  });

  it('in a room below version 5 the searches stay on this device', async () => {
    const { ann } = members(4);
    const local = await localStore('conn-ann', () => 1);
    new TeamSearches(ann).bridge(local, { shareExisting: true });
    await local.save('Cats', 'cat');
    expect(local.snapshot()).toHaveLength(1);
    expect(searches(ann.doc).size).toBe(0);
  });
});
