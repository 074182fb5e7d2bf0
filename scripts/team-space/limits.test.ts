import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { carriesUpdate, Counter, DocumentSizes, remoteAddressOf } from './limits';

// The pure parts of the limits; the server test drives them through real sockets.

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

describe('DocumentSizes', () => {
  it('admits updates up to the limit, measuring the document again before it refuses', () => {
    let measured = 0;
    const sizes = new DocumentSizes<Y.Doc>(10_000, (doc) => {
      measured++;
      return Y.encodeStateAsUpdate(doc).byteLength;
    });
    const doc = new Y.Doc();
    expect(sizes.admits(doc, 1000)).toBe(true);
    expect(measured).toBe(1);
    doc.on('update', (u: Uint8Array) => sizes.grew(doc, u.byteLength));
    doc.getMap('m').set('a', 'x'.repeat(4000));
    expect(sizes.admits(doc, 1000)).toBe(true);
    expect(measured, 'no measuring while far from the limit').toBe(1);
    doc.getMap('m').set('b', 'y'.repeat(4000));
    expect(sizes.admits(doc, 3000)).toBe(false);
    expect(measured).toBe(2);
    // Deleting makes room again: the running figure is corrected by the next measure.
    doc.getMap('m').delete('a');
    doc.getMap('m').delete('b');
    expect(sizes.admits(doc, 3000)).toBe(true);
  });
});

describe('Counter', () => {
  it('takes up to its ceiling per name and gives back', () => {
    const c = new Counter(2);
    expect([c.take('a'), c.take('a'), c.take('a'), c.take('b')]).toEqual([true, true, false, true]);
    c.release('a');
    expect(c.take('a')).toBe(true);
    c.release('b');
    c.release('b');
    expect(c.count('b')).toBe(0);
  });
});

describe('remoteAddressOf', () => {
  const req = (xff?: string | string[]) => ({
    headers: { 'x-forwarded-for': xff },
    socket: { remoteAddress: '10.0.0.1' },
  });
  it('is the socket’s address unless the node trusts its load balancer', () => {
    expect(remoteAddressOf(req('1.2.3.4'), false)).toBe('10.0.0.1');
    expect(remoteAddressOf(req('6.6.6.6, 1.2.3.4'), true)).toBe('1.2.3.4');
    expect(remoteAddressOf(req(['6.6.6.6', '5.5.5.5, 1.2.3.4']), true)).toBe('1.2.3.4');
    expect(remoteAddressOf(req(), true)).toBe('10.0.0.1');
  });
});
