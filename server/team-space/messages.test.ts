import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { carriesUpdate, updateOf } from './messages';

/** A message as Hocuspocus frames it: the document name (varstring), then the message type. */
const frame = (name: string, type: number, ...rest: number[]) => {
  const n = new TextEncoder().encode(name);
  return new Uint8Array([n.length, ...n, type, ...rest]);
};

describe('carriesUpdate', () => {
  it('is true of Sync and SyncReply, false of awareness, auth and the rest', () => {
    expect(carriesUpdate(frame('team:t', 0, 2))).toBe(true);
    expect(carriesUpdate(frame('team:t', 4, 2))).toBe(true);
    for (const type of [1, 2, 3, 5, 6, 7, 8, 9])
      expect(carriesUpdate(frame('team:t', type)), `${type}`).toBe(false);
  });

  it('a long name (a multi-byte length) is read right', () => {
    const name = 'x'.repeat(200);
    const n = new TextEncoder().encode(name);
    expect(carriesUpdate(new Uint8Array([0xc8, 0x01, ...n, 1]))).toBe(false);
    expect(carriesUpdate(new Uint8Array([0xc8, 0x01, ...n, 0]))).toBe(true);
  });

  it('what cannot be read counts as an update (Hocuspocus refuses it itself)', () => {
    expect(carriesUpdate(new Uint8Array([]))).toBe(true);
    expect(carriesUpdate(new Uint8Array([0xff, 0xff]))).toBe(true);
    expect(carriesUpdate(new Uint8Array([5, 1, 2]))).toBe(true);
  });
});

describe('updateOf', () => {
  const bytes = (...parts: number[][]) => new Uint8Array(parts.flat());
  const name = [6, ...new TextEncoder().encode('team:t')];
  const doc = new Y.Doc();
  doc.getMap('m').set('k', 1);
  const update = Y.encodeStateAsUpdate(doc);
  const withLength = [update.length, ...update];

  it('gives the Yjs update of a sync step 2 and of an update, in Sync and SyncReply', () => {
    for (const type of [0, 4])
      for (const sub of [1, 2]) expect(updateOf(bytes(name, [type, sub], withLength))).toEqual(update);
  });

  it('gives null for a step 1, awareness and auth', () => {
    expect(updateOf(bytes(name, [0, 0], withLength))).toBeNull();
    expect(updateOf(bytes(name, [1], withLength))).toBeNull();
    expect(updateOf(bytes(name, [2, 0, 3, 97, 98, 99]))).toBeNull();
  });

  it('says unreadable when the payload runs past the end', () => {
    expect(updateOf(bytes(name, [0, 2, update.length + 5], [...update]))).toBe('unreadable');
    expect(updateOf(bytes([200]))).toBe('unreadable');
  });
});
