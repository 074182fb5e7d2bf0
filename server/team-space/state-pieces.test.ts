import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { framePieces, STATE_PIECE_BYTES, unframePieces } from '../../contract/team-state';
import { cutUpdate } from '../../src/lib/yjs-pieces';

// The cut is checked against Yjs itself: a document given the pieces one by one ends exactly as one
// given the whole update (the same encoded state, byte for byte), over random documents of several
// writers with maps, arrays, text, nested types, overwrites and deletions, and copies that already hold
// part of it.

type Op =
  | { kind: 'set'; doc: number; key: string; value: unknown }
  | { kind: 'delete'; doc: number; key: string }
  | { kind: 'push'; doc: number; values: number[] }
  | { kind: 'cut'; doc: number; at: number; n: number }
  | { kind: 'type'; doc: number; at: number; text: string }
  | { kind: 'erase'; doc: number; at: number; n: number }
  | { kind: 'nested'; doc: number; key: string; inner: string; value: string }
  | { kind: 'sync'; from: number; to: number };

const doc = fc.nat({ max: 2 });
const key = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), doc, key, value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant('delete' as const), doc, key }),
  fc.record({ kind: fc.constant('push' as const), doc, values: fc.array(fc.integer(), { maxLength: 5 }) }),
  fc.record({ kind: fc.constant('cut' as const), doc, at: fc.nat(20), n: fc.nat(4) }),
  fc.record({ kind: fc.constant('type' as const), doc, at: fc.nat(40), text: fc.string({ maxLength: 30 }) }),
  fc.record({ kind: fc.constant('erase' as const), doc, at: fc.nat(40), n: fc.nat(8) }),
  fc.record({
    kind: fc.constant('nested' as const),
    doc,
    key,
    inner: key,
    value: fc.string({ maxLength: 20 }),
  }),
  fc.record({ kind: fc.constant('sync' as const), from: doc, to: doc }),
);

function run(docs: Y.Doc[], o: Op): void {
  if (o.kind === 'sync') {
    Y.applyUpdate(docs[o.to]!, Y.encodeStateAsUpdate(docs[o.from]!, Y.encodeStateVector(docs[o.to]!)));
    return;
  }
  const d = docs[o.doc]!;
  const map = d.getMap('m');
  const list = d.getArray<number>('l');
  const text = d.getText('t');
  switch (o.kind) {
    case 'set':
      map.set(o.key, o.value);
      break;
    case 'delete':
      map.delete(o.key);
      break;
    case 'push':
      list.push(o.values);
      break;
    case 'cut':
      if (list.length)
        list.delete(
          Math.min(o.at, list.length - 1),
          Math.min(o.n, list.length - Math.min(o.at, list.length - 1)),
        );
      break;
    case 'type':
      text.insert(Math.min(o.at, text.length), o.text);
      break;
    case 'erase':
      text.delete(Math.min(o.at, text.length), Math.min(o.n, text.length - Math.min(o.at, text.length)));
      break;
    case 'nested': {
      const inner = map.get(o.key);
      if (inner instanceof Y.Map) inner.set(o.inner, o.value);
      else map.set(o.key, new Y.Map([[o.inner, o.value]]));
      break;
    }
  }
}

const copyOf = (d: Y.Doc) => {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(d));
  return copy;
};

describe('a room read in pieces', () => {
  it('the pieces applied in order leave a document byte-identical to the whole update, over random documents', () => {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 60 }),
        fc.nat({ max: 2 }),
        fc.integer({ min: 1, max: 400 }),
        (ops, reader, maxBytes) => {
          const docs = [0, 1, 2].map((i) => {
            const d = new Y.Doc();
            d.clientID = 1000 + i;
            return d;
          });
          for (const o of ops) run(docs, o);
          // The reader's copy holds what it held (some of it, maybe), the source is writer 0 after it has
          // taken in everyone's edits.
          for (const d of docs.slice(1)) Y.applyUpdate(docs[0]!, Y.encodeStateAsUpdate(d));
          const base = docs[reader]!;
          const update = Y.encodeStateAsUpdate(docs[0]!, Y.encodeStateVector(base));
          const whole = copyOf(base);
          Y.applyUpdate(whole, update);
          const pieced = copyOf(base);
          const pieces = cutUpdate(update, maxBytes);
          for (const p of unframePieces(framePieces(pieces))) Y.applyUpdate(pieced, p);
          expect(pieced.store.pendingStructs).toBeNull();
          expect(pieced.store.pendingDs).toBeNull();
          expect(Y.encodeStateAsUpdate(pieced)).toEqual(Y.encodeStateAsUpdate(whole));
          expect(pieced.getText('t').toString()).toBe(docs[0]!.getText('t').toString());
          expect(pieced.getMap('m').toJSON()).toEqual(docs[0]!.getMap('m').toJSON());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a room of 1,000 team tasks comes in pieces of about 16 KB, each adding its own tasks', () => {
    const source = new Y.Doc();
    const tasks = source.getMap('tasks');
    source.transact(() => {
      for (let i = 0; i < 1_050; i++)
        tasks.set(`task_${i}`, {
          taskId: `task_${i}`,
          request: { params: { prompt: `a prompt number ${i} of some length, as a member writes them` } },
          outputs: [{ url: `http://127.0.0.1:4100/media/out/${i}.png` }],
          status: 'succeeded',
          createdAt: 1_700_000_000_000 + i,
        });
    });
    source.transact(() => {
      for (let i = 1_000; i < 1_050; i++) tasks.delete(`task_${i}`);
    });
    const update = Y.encodeStateAsUpdate(source);
    const pieces = cutUpdate(update, STATE_PIECE_BYTES);
    expect(pieces.length).toBeGreaterThanOrEqual(Math.floor(update.byteLength / STATE_PIECE_BYTES));
    const largestTask = 400;
    for (const p of pieces) expect(p.byteLength).toBeLessThanOrEqual(STATE_PIECE_BYTES + largestTask);
    const reader = new Y.Doc();
    const seen: number[] = [];
    reader.getMap('tasks').observe((e) => seen.push(e.keysChanged.size));
    for (const p of pieces) Y.applyUpdate(reader, p);
    // Every piece but the deletions' added tasks (the deleted 50 never show as present: their content
    // was collected, so they come as deleted structs).
    expect(seen.length).toBe(pieces.length - 1);
    expect(reader.getMap('tasks').size).toBe(1_000);
    expect(Y.encodeStateAsUpdate(reader)).toEqual(update);
  });

  it('a framed body cut short is refused, not read as fewer pieces', () => {
    const body = framePieces([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])]);
    expect(unframePieces(body)).toHaveLength(2);
    expect(() => unframePieces(body.subarray(0, body.byteLength - 1))).toThrow(/cut short/);
    expect(() => unframePieces(body.subarray(0, 2))).toThrow(/cut short/);
  });
});
