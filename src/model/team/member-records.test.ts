import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type * as Y from 'yjs';
import { sync, teamContext, type TestContext } from '../../test/team-test-context';
import { MemberRecords, mirrorMine, type RecordsSpec } from './member-records';
import { ROOTS } from './team-doc';
import { OPEN_GATE, type ShareGate } from './team-share';

// The generic store of one member's plain records, on real documents: a member-keyed root (`tags`,
// `${memberId}|${outputKey}`) and an id-keyed one (`searches`, the author in `by`), each with a schema of
// the test's own and a record function that counts how often a value is read.

const NoteSchema = z.object({ tags: z.array(z.string()), at: z.number().check(z.gte(0)) });
type Note = { memberId: string; tags: readonly string[]; at: number };

const SavedSchema = z.object({
  name: z.string().check(z.minLength(1)),
  query: z.string(),
  by: z.string(),
  at: z.number().check(z.gte(0)),
});
type Saved = { id: string; name: string; by: string; at: number };

/** A room whose server keeps both roots (schema version 5). */
const roomOf = (ctx: TestContext, version = 5) => ctx.doc.getMap(ROOTS.meta).set('schemaVersion', version);

function memberKeyed(ctx: TestContext, gate: ShareGate = OPEN_GATE) {
  const reads: string[] = [];
  const spec: RecordsSpec<typeof NoteSchema, Note> = {
    root: ROOTS.tags,
    keptFrom: 5,
    keyed: 'member',
    schema: NoteSchema,
    record: ({ tags, at }, { memberId, subject }) => {
      reads.push(`${memberId}|${subject}`);
      return tags.length ? { memberId, tags, at } : null;
    },
  };
  return { store: new MemberRecords(ctx, gate, spec), reads };
}

function idKeyed(ctx: TestContext) {
  const spec: RecordsSpec<typeof SavedSchema, Saved> = {
    root: ROOTS.searches,
    keptFrom: 5,
    keyed: 'id',
    schema: SavedSchema,
    record: ({ name, by, at }, { subject }) => ({ id: subject, name, by, at }),
  };
  return new MemberRecords(ctx, OPEN_GATE, spec);
}

const tags = (doc: Y.Doc) => doc.getMap(ROOTS.tags);
const searches = (doc: Y.Doc) => doc.getMap(ROOTS.searches);

function members() {
  const ann = teamContext('key_ann');
  const bob = teamContext('key_bob');
  const eve = teamContext('key_eve');
  for (const c of [ann, bob, eve]) roomOf(c);
  return { ann, bob, eve };
}

describe('MemberRecords: reading what others wrote', () => {
  it('skips a malformed value from another member, keeps reading the rest, and drops a record once it turns malformed', () => {
    const { ann, bob, eve } = members();
    const { store } = memberKeyed(ann);
    let heard = 0;
    store.subscribe(() => heard++);
    memberKeyed(bob).store.write([{ subject: 't1#0', value: { tags: ['dog'], at: 2 } }]);
    // A hostile client writes straight into the document, past any store.
    tags(eve.doc).set('key_eve|t1#0', '<img src=x onerror=alert(1)>');
    tags(eve.doc).set('key_eve|t2#0', { tags: 'cat', at: 1 });
    tags(eve.doc).set('key_eve|t3#0', { tags: ['x'.repeat(41)], at: 1 });
    tags(eve.doc).set('no-bar', { tags: ['cat'], at: 1 });
    expect(() => {
      sync(bob.doc, ann.doc);
      sync(eve.doc, ann.doc);
    }).not.toThrow();

    expect([...store.bySubject()]).toEqual([['t1#0', [{ memberId: 'key_bob', tags: ['dog'], at: 2 }]]]);
    expect(store.get('t2#0', 'key_eve')).toBeUndefined();
    expect(heard).toBeGreaterThan(0);

    tags(bob.doc).set('key_bob|t1#0', { tags: 42 });
    sync(bob.doc, ann.doc);
    expect(store.bySubject().size).toBe(0);
    expect(store.list()).toEqual([]);
  });

  it('in an id-keyed root, reads each record’s author from its value and skips one that names none', () => {
    const { ann, bob } = members();
    searches(bob.doc).set('b1', { name: 'Dogs', query: 'dog', by: 'key_bob', at: 2 });
    searches(bob.doc).set('b2', { name: 'No author', query: 'x', at: 3 });
    searches(bob.doc).set('b3', { name: '', query: 'x', by: 'key_bob', at: 4 });
    sync(bob.doc, ann.doc);
    const store = idKeyed(ann);
    expect(store.list()).toEqual([{ id: 'b1', name: 'Dogs', by: 'key_bob', at: 2 }]);
    expect(store.get('b1', 'key_bob')).toEqual(store.at('b1'));
    expect(store.mine().size).toBe(0);
  });

  it('lists every record newest first, ties by subject and then member', () => {
    const { ann, bob } = members();
    const annStore = memberKeyed(ann).store;
    const bobStore = memberKeyed(bob).store;
    annStore.write([
      { subject: 't2#0', value: { tags: ['a'], at: 5 } },
      { subject: 't1#0', value: { tags: ['b'], at: 5 } },
    ]);
    bobStore.write([
      { subject: 't1#0', value: { tags: ['c'], at: 5 } },
      { subject: 't3#0', value: { tags: ['d'], at: 9 } },
    ]);
    sync(ann.doc, bob.doc);
    expect(annStore.list().map((n) => `${n.memberId}:${n.tags[0]}`)).toEqual([
      'key_bob:d',
      'key_ann:b',
      'key_bob:c',
      'key_ann:a',
    ]);
    expect(
      annStore
        .bySubject()
        .get('t1#0')
        ?.map((n) => n.memberId),
    ).toEqual(['key_ann', 'key_bob']);
  });
});

describe('MemberRecords: only the keys a change touched are read again', () => {
  it('reads one changed key once, keeps the list of every subject the change left alone, and the same views until a change', () => {
    const { ann, bob } = members();
    const bobStore = memberKeyed(bob).store;
    bobStore.write([
      { subject: 't1#0', value: { tags: ['one'], at: 1 } },
      { subject: 't2#0', value: { tags: ['two'], at: 1 } },
      { subject: 't3#0', value: { tags: ['three'], at: 1 } },
    ]);
    sync(bob.doc, ann.doc);
    const { store, reads } = memberKeyed(ann);
    expect(reads).toHaveLength(3);
    const before = store.bySubject();
    const list = store.list();
    expect(store.bySubject()).toBe(before);
    expect(store.list()).toBe(list);

    bobStore.write([{ subject: 't2#0', value: { tags: ['two', 'more'], at: 2 } }]);
    sync(bob.doc, ann.doc);

    expect(reads).toEqual(['key_bob|t1#0', 'key_bob|t2#0', 'key_bob|t3#0', 'key_bob|t2#0']);
    const after = store.bySubject();
    expect(after).not.toBe(before);
    expect(after.get('t1#0')).toBe(before.get('t1#0'));
    expect(after.get('t3#0')).toBe(before.get('t3#0'));
    expect(after.get('t2#0')).toEqual([{ memberId: 'key_bob', tags: ['two', 'more'], at: 2 }]);
    expect(store.list()).not.toBe(list);
  });

  it('hears the keys a change from elsewhere touched, after reading them, and not this member’s own writes', () => {
    const { ann, bob } = members();
    const { store } = memberKeyed(ann);
    const heard: Array<[string[], number]> = [];
    store.onRemote((keys) => heard.push([[...keys], store.bySubject().size]));
    store.write([{ subject: 't1#0', value: { tags: ['mine'], at: 1 } }]);
    expect(heard).toEqual([]);
    memberKeyed(bob).store.write([{ subject: 't2#0', value: { tags: ['bob'], at: 1 } }]);
    sync(bob.doc, ann.doc);
    expect(heard).toEqual([[['key_bob|t2#0'], 2]]);
  });

  it('stops reading once destroyed', () => {
    const { ann } = members();
    const { store, reads } = memberKeyed(ann);
    let heard = 0;
    store.subscribe(() => heard++);
    store.destroy();
    tags(ann.doc).set('key_ann|t1#0', { tags: ['x'], at: 1 });
    expect(reads).toEqual([]);
    expect(heard).toBe(0);
  });
});

describe('MemberRecords: writing only this member’s records', () => {
  it('in a member-keyed root, neither writes nor takes away another member’s key', () => {
    const { ann, bob } = members();
    memberKeyed(bob).store.write([{ subject: 't1#0', value: { tags: ['dog'], at: 1 } }]);
    sync(bob.doc, ann.doc);
    const { store } = memberKeyed(ann);
    store.write([
      { subject: 't1#0', value: null },
      // A subject naming another member still goes under this member's key.
      { subject: 'key_bob|t1#0', value: { tags: ['cat'], at: 2 } },
      { subject: 'not-an-output', value: { tags: ['cat'], at: 2 } },
    ]);
    expect(tags(ann.doc).toJSON()).toEqual({
      'key_bob|t1#0': { tags: ['dog'], at: 1 },
      'key_ann|key_bob|t1#0': { tags: ['cat'], at: 2 },
    });
  });

  it('in an id-keyed root, neither changes nor deletes another member’s record, nor writes one in another’s name', () => {
    const { ann, bob } = members();
    idKeyed(bob).write([{ subject: 'b1', value: { name: 'Dogs', query: 'dog', by: 'key_bob', at: 1 } }]);
    searches(bob.doc).set('x1', { name: 'Nobody’s', query: '', at: 1 });
    sync(bob.doc, ann.doc);
    const store = idKeyed(ann);
    store.write([{ subject: 'b1', value: { name: 'Mine now', query: 'cat', by: 'key_ann', at: 2 } }]);
    store.write([{ subject: 'b1', value: null }]);
    store.write([{ subject: 'x1', value: { name: 'Mine now', query: '', by: 'key_ann', at: 2 } }]);
    store.write([{ subject: 'a1', value: { name: 'Framed', query: '', by: 'key_bob', at: 2 } }]);
    expect(searches(ann.doc).toJSON()).toEqual({
      b1: { name: 'Dogs', query: 'dog', by: 'key_bob', at: 1 },
      x1: { name: 'Nobody’s', query: '', at: 1 },
    });
    // Its own it writes, changes and takes away.
    store.write([{ subject: 'a1', value: { name: 'Cats', query: 'cat', by: 'key_ann', at: 3 } }]);
    expect(store.mine()).toEqual(new Map([['a1', { id: 'a1', name: 'Cats', by: 'key_ann', at: 3 }]]));
    store.write([{ subject: 'a1', value: null }]);
    expect(searches(ann.doc).has('a1')).toBe(false);
  });

  it('writes only what its schema and the contract accept, all in one transaction of this member’s', () => {
    const { ann } = members();
    const { store } = memberKeyed(ann);
    const origins: unknown[] = [];
    ann.doc.on('afterTransaction', (tr) => origins.push(tr.origin));
    store.write([
      { subject: 't1#0', value: { tags: ['ok'], at: 1 } },
      { subject: 't2#0', value: { tags: ['ok'], at: -1 } },
      { subject: 't3#0', value: { tags: Array.from({ length: 21 }, (_, i) => `t${i}`), at: 1 } },
      { subject: 't4#0', value: { tags: ['ok'], at: 1 } },
    ]);
    expect([...tags(ann.doc).keys()].sort()).toEqual(['key_ann|t1#0', 'key_ann|t4#0']);
    expect(origins).toEqual([ann.origin]);
  });

  it('writes nothing in a room whose server does not keep the root', () => {
    const ann = teamContext('key_ann');
    roomOf(ann, 4);
    const { store } = memberKeyed(ann);
    expect(store.shared()).toBe(false);
    expect(store.write([{ subject: 't1#0', value: { tags: ['x'], at: 1 } }])).toBe(false);
    expect(tags(ann.doc).size).toBe(0);
    roomOf(ann, 5);
    expect(store.write([{ subject: 't1#0', value: { tags: ['x'], at: 1 } }])).toBe(true);
    expect(tags(ann.doc).size).toBe(1);
  });

  it('past this member’s share a new record stays on the device, and taking one away still goes', () => {
    const { ann } = members();
    let room = true;
    const { store } = memberKeyed(ann, { allows: () => room });
    store.write([{ subject: 't1#0', value: { tags: ['x'], at: 1 } }]);
    room = false;
    store.write([
      { subject: 't2#0', value: { tags: ['y'], at: 1 } },
      { subject: 't1#0', value: null },
    ]);
    expect(tags(ann.doc).size).toBe(0);
  });
});

describe('mirrorMine: this member’s local records and the room', () => {
  it('sends local changes, takes back another device’s, leaves another member’s, and the newer side wins at the start', () => {
    const laptop = teamContext('key_ann');
    const phone = teamContext('key_ann');
    const bob = teamContext('key_bob');
    for (const c of [laptop, phone, bob]) roomOf(c);
    const team = memberKeyed(laptop).store;
    team.write([
      { subject: 't1#0', value: { tags: ['older-there'], at: 1 } },
      { subject: 't2#0', value: { tags: ['newer-there'], at: 9 } },
    ]);

    type Local = { tags: readonly string[]; at: number };
    let local: ReadonlyMap<string, Local> = new Map([
      ['t1#0', { tags: ['newer-here'], at: 5 }],
      ['t2#0', { tags: ['older-here'], at: 5 }],
    ]);
    const listeners = new Set<() => void>();
    const setLocal = (next: ReadonlyMap<string, Local>) => {
      local = next;
      for (const l of listeners) l();
    };
    const stop = mirrorMine(
      team,
      laptop,
      {
        local: () => local,
        subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
        same: (a, b) => a?.at === b?.at && a?.tags.join() === b?.tags.join(),
        toLocal: (subject, there) => {
          const next = new Map(local);
          if (there) next.set(subject, { tags: there.tags, at: there.at });
          else next.delete(subject);
          local = next;
        },
        change: (subject, here) => ({ subject, value: here ? { tags: [...here.tags], at: here.at } : null }),
        write: (changes) => team.write(changes),
      },
      {},
    );
    expect(team.get('t1#0', 'key_ann')?.tags).toEqual(['newer-here']);
    expect(local.get('t2#0')?.tags).toEqual(['newer-there']);

    setLocal(new Map([...local, ['t3#0', { tags: ['new'], at: 10 }]]));
    expect(tags(laptop.doc).get('key_ann|t3#0')).toEqual({ tags: ['new'], at: 10 });

    memberKeyed(phone).store.write([{ subject: 't4#0', value: { tags: ['phone'], at: 11 } }]);
    memberKeyed(bob).store.write([{ subject: 't5#0', value: { tags: ['bob'], at: 11 } }]);
    sync(phone.doc, laptop.doc);
    sync(bob.doc, laptop.doc);
    expect(local.get('t4#0')).toEqual({ tags: ['phone'], at: 11 });
    expect(local.has('t5#0')).toBe(false);

    stop();
    setLocal(new Map([...local, ['t6#0', { tags: ['after'], at: 12 }]]));
    expect(tags(laptop.doc).has('key_ann|t6#0')).toBe(false);
  });
});
