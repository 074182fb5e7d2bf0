import { describe, expect, it } from 'vitest';
import type { TeamSpaceReason } from '../../../contract/team-room';
import { member } from '../../test/team-test-utils';
import { TeamConnection, type ProviderLike } from './team-connection';
import { ROOTS, rootMap } from './team-doc';
import { TeamLive, type RefusalOutcome } from './team-live';
import type { TeamSpace } from './team-space';

type Listener = (e: never) => void;

class FakeProvider implements ProviderLike {
  listeners = new Map<string, Listener[]>();
  destroyed = false;
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, payload: unknown) {
    for (const l of this.listeners.get(event) ?? []) l(payload as never);
  }
  connect() {}
  disconnect() {}
  destroy() {
    this.destroyed = true;
  }
}

/**
 * Sessions over real TeamConnections with a fake provider and a fake copy on the device: each session a
 * new Y.Doc; what the device holds is one shared record per room name, deleted by clearData.
 */
function harness() {
  let now = 0;
  const device = new Map<string, string[]>(); // the room's database: what was written to it
  const sessions: Array<{ space: TeamSpace; provider: FakeProvider; afresh: boolean }> = [];
  const told: Array<[TeamSpaceReason, RefusalOutcome]> = [];
  const live = new TeamLive({
    now: () => now,
    onRefusal: (reason, outcome) => told.push([reason, outcome]),
    open: (afresh) => {
      const space = member('key-a', () => now);
      const provider = new FakeProvider();
      const connection = new TeamConnection(space, {
        url: 'ws://studio.test/sync',
        room: 'team:t1',
        token: () => 'not-a-real-key',
        localName: 'media-studio-team:conn:team:t1',
        network: null,
        createProvider: () => provider,
        createPersistence: (s, name) => {
          // The copy on the device is read into the new document, as y-indexeddb does.
          for (const id of device.get(name) ?? [])
            rootMap(s.doc, ROOTS.prompts).set(id, { text: id, by: 'key-a', sharedAt: 1 });
          return {
            whenSynced: Promise.resolve(),
            destroy: () => undefined,
            clearData: () => void device.delete(name),
          };
        },
      });
      sessions.push({ space, provider, afresh });
      return {
        connection,
        start: () => connection.start(),
        close: (o?: { dropCopy?: boolean }) => connection.close(o),
      };
    },
  });
  device.set('media-studio-team:conn:team:t1', ['refused prompt']);
  return { live, device, sessions, told, tick: (ms: number) => (now += ms) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('TeamLive: a change the server refuses', () => {
  it('drops this device’s copy of the room and joins again once, afresh, with a new document', async () => {
    const { live, device, sessions, told } = harness();
    await live.start();
    const first = live.snapshot().session;
    expect(first).not.toBeNull();
    expect(rootMap(sessions[0]!.space.doc, ROOTS.prompts).has('refused prompt')).toBe(true);

    sessions[0]!.provider.emit('close', { event: { code: 1000, reason: 'not-yours' } });
    await settle();
    expect(told).toEqual([['not-yours', 'rejoining']]);
    expect(sessions[0]!.provider.destroyed).toBe(true);
    // The copy is gone: the new session's document does not hold the refused update.
    expect(device.has('media-studio-team:conn:team:t1')).toBe(false);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]!.afresh).toBe(true);
    expect(sessions[1]!.space.doc).not.toBe(sessions[0]!.space.doc);
    expect(rootMap(sessions[1]!.space.doc, ROOTS.prompts).size).toBe(0);
    const second = live.snapshot().session;
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect(live.snapshot().stopped).toBeNull();
    await live.close();
  });

  it('refused again soon after joining afresh: stops there and says so, with no restart loop', async () => {
    const { live, sessions, told, tick } = harness();
    await live.start();
    sessions[0]!.provider.emit('close', { event: { code: 1000, reason: 'invalid-value' } });
    await settle();
    tick(5_000);
    sessions[1]!.provider.emit('close', { event: { code: 4433, reason: 'invalid-value' } });
    await settle();
    expect(sessions).toHaveLength(2);
    expect(told).toEqual([
      ['invalid-value', 'rejoining'],
      ['invalid-value', 'stopped'],
    ]);
    expect(live.snapshot().stopped).toBe('invalid-value');
    expect(live.snapshot().session).not.toBeNull();
    await live.close();
  });

  it('a refusal long after the last fresh start joins afresh again', async () => {
    const { live, sessions, told, tick } = harness();
    await live.start();
    sessions[0]!.provider.emit('close', { event: { code: 1000, reason: 'not-yours' } });
    await settle();
    tick(60 * 60_000);
    sessions[1]!.provider.emit('close', { event: { code: 1000, reason: 'not-yours' } });
    await settle();
    expect(told.map(([, outcome]) => outcome)).toEqual(['rejoining', 'rejoining']);
    expect(sessions).toHaveLength(3);
    await live.close();
  });

  it('a refused key (not a refused change) does not drop the copy or join again', async () => {
    const { live, device, sessions, told } = harness();
    await live.start();
    sessions[0]!.provider.emit('close', { event: { code: 4401, reason: 'key-invalid' } });
    await settle();
    expect(told).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(device.has('media-studio-team:conn:team:t1')).toBe(true);
    await live.close();
  });
});
