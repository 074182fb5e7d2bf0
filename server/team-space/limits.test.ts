import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { Counter, DocumentSizes, remoteAddressOf } from './limits';

// The pure parts of the limits; the server test drives them through real sockets.

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
