import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { framePieces } from '../../../contract/team-state';
import { member } from '../../test/team-test-utils';
import { TeamConnection, type ProviderLike } from './team-connection';
import { PRELOAD_ORIGIN, preloadRoom } from './team-preload';

/** A room of `n` tasks and its content cut in pieces of one writer's run each (as the server cuts it). */
function roomInPieces(n: number) {
  const pieces: Uint8Array[] = [];
  const source = new Y.Doc();
  let before = Y.encodeStateVector(source);
  for (let i = 0; i < n; i++) {
    source.getMap('tasks').set(`t${i}`, { taskId: `t${i}` });
    pieces.push(Y.encodeStateAsUpdate(source, before));
    before = Y.encodeStateVector(source);
  }
  return { source, pieces };
}

const answering = (body: Uint8Array | null, status = 200) => {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = async (url: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    if (!body) throw new TypeError('Failed to fetch');
    return new Response(body as Uint8Array<ArrayBuffer>, { status });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
};

describe('preloadRoom', () => {
  it('asks with the key in the header and the copy’s state vector, and applies one piece per task', async () => {
    const { source, pieces } = roomInPieces(5);
    const { calls, fetch } = answering(framePieces(pieces));
    const doc = new Y.Doc();
    const order: string[] = [];
    doc.on('afterTransaction', (tr: Y.Transaction) =>
      order.push(tr.origin === PRELOAD_ORIGIN ? 'piece' : 'other'),
    );
    const applied = await preloadRoom(doc, {
      baseUrl: 'http://studio.test/sync',
      token: () => 'ms_live_secret',
      stopped: () => false,
      fetch,
      nextTask: async () => void order.push('yield'),
    });
    expect(applied).toBe(5);
    expect(order).toEqual(Array.from({ length: 5 }, () => ['yield', 'piece']).flat());
    expect(doc.getMap('tasks').toJSON()).toEqual(source.getMap('tasks').toJSON());
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('http://studio.test/sync/state');
    expect(calls[0]!.url).not.toContain('secret');
    expect(calls[0]!.init.method).toBe('POST');
    expect(new Headers(calls[0]!.init.headers).get('Authorization')).toBe('Bearer ms_live_secret');
    const sent = new Uint8Array(await (calls[0]!.init.body as Blob).arrayBuffer());
    expect(sent).toEqual(Y.encodeStateVector(new Y.Doc()));
  });

  it('stops between pieces once the team space is turned off', async () => {
    const { pieces } = roomInPieces(6);
    const doc = new Y.Doc();
    let yields = 0;
    const applied = await preloadRoom(doc, {
      baseUrl: 'http://studio.test/sync',
      token: () => 'k',
      stopped: () => yields >= 3,
      fetch: answering(framePieces(pieces)).fetch,
      nextTask: async () => void (yields += 1),
    });
    expect(applied).toBe(2);
    expect(doc.getMap('tasks').size).toBe(2);
  });

  it('unreachable, refused, cut short or not Yjs: the copy is left as it was (or as far as it got), and the socket brings the rest', async () => {
    const { pieces } = roomInPieces(3);
    const run = async (fetch: typeof globalThis.fetch) => {
      const doc = new Y.Doc();
      const applied = await preloadRoom(doc, {
        baseUrl: 'http://studio.test/sync',
        token: () => 'k',
        stopped: () => false,
        fetch,
        nextTask: async () => undefined,
      });
      return { applied, size: doc.getMap('tasks').size };
    };
    expect(await run(answering(null).fetch)).toEqual({ applied: 0, size: 0 });
    expect(await run(answering(framePieces(pieces), 429).fetch)).toEqual({ applied: 0, size: 0 });
    const whole = framePieces(pieces);
    expect(await run(answering(whole.subarray(0, whole.byteLength - 2)).fetch)).toEqual({
      applied: 0,
      size: 0,
    });
    const garbage = framePieces([pieces[0]!, new Uint8Array([9, 9, 9, 9]), pieces[1]!]);
    expect(await run(answering(garbage).fetch)).toEqual({ applied: 1, size: 1 });
  });
});

describe('TeamConnection with a preload', () => {
  const provider: ProviderLike = {
    on: () => undefined,
    connect: () => undefined,
    disconnect: () => undefined,
    destroy: () => undefined,
  };
  const connectionWith = (preload: () => Promise<unknown>) => {
    let created = 0;
    const connection = new TeamConnection(
      member('key-a', () => 0),
      {
        url: 'ws://studio.test/sync',
        room: 'team:t1',
        token: () => 'k',
        localName: 'test',
        network: null,
        preload,
        createProvider: () => {
          created += 1;
          return provider;
        },
        createPersistence: () => ({
          whenSynced: Promise.resolve(),
          destroy: () => undefined,
          clearData: () => undefined,
        }),
      },
    );
    return { connection, created: () => created };
  };

  it('connects the socket only once the preload is done', async () => {
    let finish = () => undefined as void;
    const { connection, created } = connectionWith(() => new Promise<void>((r) => (finish = r)));
    await connection.start();
    expect(connection.snapshot().local).toBe(true);
    expect(created()).toBe(0);
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(created()).toBe(1);
  });

  it('turned off during the preload, it never connects', async () => {
    let finish = () => undefined as void;
    const { connection, created } = connectionWith(() => new Promise<void>((r) => (finish = r)));
    await connection.start();
    await connection.close();
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(created()).toBe(0);
  });
});
