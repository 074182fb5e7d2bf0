import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { TEAM_DOC_VERSION } from '../../../contract/team-doc';
import { member } from '../../test/team-test-utils';
import { TeamConnection, type ProviderLike } from './team-connection';
import type { PersistenceLike } from './team-local-copy';
import { ROOTS, rootMap } from './team-doc';

type Listener = (e: never) => void;

/** A provider that emits what the test says, as HocuspocusProvider would. */
class FakeProvider implements ProviderLike {
  listeners = new Map<string, Listener[]>();
  disconnected = false;
  destroyed = false;
  connects = 0;
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, payload: unknown) {
    for (const l of this.listeners.get(event) ?? []) l(payload as never);
  }
  connect() {
    this.connects++;
  }
  disconnect() {
    this.disconnected = true;
  }
  destroy() {
    this.destroyed = true;
  }
}

function setup(options: { persistence?: PersistenceLike; network?: EventTarget } = {}) {
  let now = 1_000;
  const space = member('key-a', () => now);
  const provider = new FakeProvider();
  const connection = new TeamConnection(space, {
    url: 'ws://studio.test/sync',
    room: 'team:t1',
    token: () => 'not-a-real-key',
    localName: 'test',
    now: () => now,
    network: options.network ?? null,
    createProvider: () => provider,
    createPersistence: () =>
      options.persistence ?? {
        whenSynced: Promise.resolve(),
        destroy: () => undefined,
        clearData: () => undefined,
      },
  });
  return { space, provider, connection, tick: (ms: number) => (now += ms) };
}

describe('TeamConnection', () => {
  it('reads this device’s copy, then is online once synced; offline since the moment the link dropped', async () => {
    const { provider, connection, tick } = setup();
    expect(connection.snapshot()).toMatchObject({ link: 'connecting', local: false });
    await connection.start();
    expect(connection.snapshot()).toMatchObject({ link: 'connecting', local: true });
    provider.emit('status', { status: 'connected' });
    provider.emit('synced', { state: true });
    expect(connection.snapshot().link).toBe('online');
    tick(5_000);
    provider.emit('status', { status: 'disconnected' });
    expect(connection.snapshot()).toMatchObject({ link: 'offline', since: 6_000 });
    // The provider keeps trying: still offline since then, not "connecting" again.
    tick(1_000);
    provider.emit('status', { status: 'connecting' });
    expect(connection.snapshot()).toMatchObject({ link: 'offline', since: 6_000 });
    provider.emit('synced', { state: true });
    expect(connection.snapshot()).toMatchObject({ link: 'online', reason: null });
  });

  it('the browser going offline shows at once; back online, it tries again at once, or is online if its socket lasted', async () => {
    const network = new EventTarget();
    const { provider, connection, tick } = setup({ network });
    await connection.start();
    provider.emit('status', { status: 'connected' });
    provider.emit('synced', { state: true });
    tick(1_000);
    network.dispatchEvent(new Event('offline'));
    expect(connection.snapshot()).toMatchObject({ link: 'offline', since: 2_000 });
    // The socket outlived the blip: online again, with no new attempt.
    network.dispatchEvent(new Event('online'));
    expect(connection.snapshot().link).toBe('online');
    expect(provider.connects).toBe(0);
    // The provider noticed the drop and is retrying (an attempt may hang while offline): back online,
    // a new attempt now.
    network.dispatchEvent(new Event('offline'));
    provider.emit('status', { status: 'disconnected' });
    provider.emit('status', { status: 'connecting' });
    network.dispatchEvent(new Event('online'));
    expect(connection.snapshot().link).toBe('offline');
    expect(provider.connects).toBe(1);
    provider.emit('status', { status: 'connected' });
    provider.emit('synced', { state: true });
    expect(connection.snapshot().link).toBe('online');
    // Closed: the network's events are no longer heard.
    await connection.close();
    network.dispatchEvent(new Event('offline'));
    expect(connection.snapshot().link).toBe('online');
  });

  it('a refused key stops the attempts and says why; a transient refusal keeps them going', async () => {
    const { provider, connection } = setup();
    await connection.start();
    provider.emit('authenticationFailed', { reason: 'api-unavailable' });
    expect(connection.snapshot()).toMatchObject({ link: 'offline', reason: 'api-unavailable' });
    expect(provider.disconnected).toBe(false);
    provider.emit('authenticationFailed', { reason: 'key-invalid' });
    expect(connection.snapshot()).toMatchObject({ link: 'refused', reason: 'key-invalid' });
    expect(provider.disconnected).toBe(true);
    // Later status changes do not hide the refusal.
    provider.emit('status', { status: 'disconnected' });
    expect(connection.snapshot().link).toBe('refused');
  });

  it('a key ended later by the server (a re-check) is refused with the reason of the close', async () => {
    const { provider, connection } = setup();
    await connection.start();
    provider.emit('synced', { state: true });
    provider.emit('close', { event: { code: 4403, reason: 'account-banned' } });
    expect(connection.snapshot()).toMatchObject({ link: 'refused', reason: 'account-banned' });
  });

  it('never writes meta: the server migrates the room (no update of this studio on reading or syncing)', async () => {
    let release!: () => void;
    const whenSynced = new Promise<void>((resolve) => (release = resolve));
    const { space, provider, connection } = setup({
      persistence: { whenSynced, destroy: () => undefined, clearData: () => undefined },
    });
    const written: Uint8Array[] = [];
    space.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== 'remote') written.push(update);
    });
    const starting = connection.start();
    release();
    await starting;
    // An old room arrives from the server (version 0): left to the server's migrations.
    provider.emit('synced', { state: true });
    expect(written).toEqual([]);
    expect(rootMap(space.doc, ROOTS.meta).size).toBe(0);
    expect(connection.snapshot().newer).toBe(false);
  });

  it('a room of a newer version than this studio reads says so (reload)', async () => {
    const { space, provider, connection } = setup();
    await connection.start();
    const server = new Y.Doc();
    rootMap(server, ROOTS.meta).set('schemaVersion', TEAM_DOC_VERSION + 1);
    Y.applyUpdate(space.doc, Y.encodeStateAsUpdate(server), 'remote');
    provider.emit('synced', { state: true });
    expect(connection.snapshot()).toMatchObject({ link: 'online', newer: true });
  });

  it('a refused change (the document’s close message, code 1000) stops the attempts, says why and tells its listeners once', async () => {
    const { provider, connection } = setup();
    await connection.start();
    provider.emit('synced', { state: true });
    const heard: string[] = [];
    connection.onChangeRefused((reason) => heard.push(reason));
    provider.emit('close', { event: { code: 1000, reason: 'not-yours' } });
    expect(connection.snapshot()).toMatchObject({ link: 'refused', reason: 'not-yours' });
    expect(provider.disconnected).toBe(true);
    // The socket's own close that follows is the same refusal, not a second one.
    provider.emit('close', { event: { code: 4431, reason: 'not-yours' } });
    provider.emit('status', { status: 'disconnected' });
    expect(heard).toEqual(['not-yours']);
    expect(connection.snapshot().link).toBe('refused');
  });

  it('a socket closed with a change refusal’s code is one too; an ordinary close is not', async () => {
    const { provider, connection } = setup();
    await connection.start();
    provider.emit('close', { event: { code: 1006, reason: '' } });
    expect(connection.snapshot().link).not.toBe('refused');
    provider.emit('close', { event: { code: 4436, reason: 'share-full' } });
    expect(connection.snapshot()).toMatchObject({ link: 'refused', reason: 'share-full' });
  });

  it('close({ dropCopy }) deletes this device’s copy instead of keeping it', async () => {
    const calls: string[] = [];
    const { connection } = setup({
      persistence: {
        whenSynced: Promise.resolve(),
        destroy: () => void calls.push('destroy'),
        clearData: () => void calls.push('clearData'),
      },
    });
    await connection.start();
    await connection.close({ dropCopy: true });
    expect(calls).toEqual(['clearData']);
  });

  it('close() ends the provider and keeps this device’s copy', async () => {
    let destroyed = false;
    const { provider, connection } = setup({
      persistence: {
        whenSynced: Promise.resolve(),
        destroy: () => void (destroyed = true),
        clearData: () => undefined,
      },
    });
    await connection.start();
    await connection.close();
    expect(provider.destroyed).toBe(true);
    expect(destroyed).toBe(true);
  });
});
