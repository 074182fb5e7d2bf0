import { HocuspocusProvider } from '@hocuspocus/provider';
import { IndexeddbPersistence } from 'y-indexeddb';
import { isTeamSpaceReason, TRANSIENT_REASONS } from '../../../contract/team-room';
import type { TeamSpace } from './team-space';
import { Listeners } from '../../lib/store';

// The team space's connection (docs/team-space.md): the room's document kept on this device by
// y-indexeddb (what is edited offline is kept, and merged by Yjs on return) and synced through the
// Hocuspocus server by its provider (which reconnects by itself, with back-off). This module only
// watches them and says, in a form a status line can show, whether the team space is online, offline
// since when, or refused and why. The API key is the provider's token: sent in the WebSocket's first
// message, never in a URL.

type TeamLink =
  /** Opening: this device's copy is being read, or the server not reached yet. */
  | 'connecting'
  /** Connected, authenticated and in step with the server. */
  | 'online'
  /** The server cannot be reached: work goes on here and is shared on return. */
  | 'offline'
  /** The server turned the key away (revoked, expired, banned, unbound, not this room). */
  | 'refused';

export interface TeamStatus {
  link: TeamLink;
  /** When the link last changed (ms since epoch): "offline since 12:03". */
  since: number;
  /**
   * Why it was refused, or why the server could not admit it for now: one of the server's reason codes
   * (contract/team-room.ts), or the text it sent when it is not one of them.
   */
  reason: string | null;
  /** This device's copy has been read (IndexedDB): the team's data is shown. */
  local: boolean;
}

/** What the connection needs of a provider: the parts of HocuspocusProvider it uses (tests fake it). */
export interface ProviderLike {
  on(event: 'status', listener: (e: { status: string }) => void): unknown;
  on(event: 'synced', listener: (e: { state: boolean }) => void): unknown;
  on(event: 'authenticationFailed', listener: (e: { reason: string }) => void): unknown;
  on(event: 'close', listener: (e: { event: { code: number; reason: string } }) => void): unknown;
  /** Tries to connect now (HocuspocusProvider: a new attempt unless a socket is open). */
  connect(): unknown;
  disconnect(): void;
  destroy(): void;
}

export interface PersistenceLike {
  whenSynced: Promise<unknown>;
  destroy(): Promise<void> | void;
}

export interface TeamConnectionOptions {
  /** The server's WebSocket URL (ws(s)://studio-origin/sync). */
  url: string;
  /** The room the server admits this key to (contract/team-room.ts): the server checks it again. */
  room: string;
  /** The API key, read when the provider authenticates (kept by the connection's owner, never stored here). */
  token: () => string;
  /** The IndexedDB database of this device's copy: per connection, so another key never reads it. */
  localName: string;
  now?: () => number;
  createProvider?: (space: TeamSpace, options: TeamConnectionOptions) => ProviderLike;
  createPersistence?: (space: TeamSpace, name: string) => PersistenceLike;
  /** Where the browser says the network went and came back ("offline", "online"): window by default. */
  network?: EventTarget | null;
}

/** Close codes the server uses to turn a key away (Hocuspocus's Unauthorized and Forbidden). */
const REFUSED_CODES = new Set([4401, 4403]);

const defaultProvider = (space: TeamSpace, o: TeamConnectionOptions): ProviderLike =>
  new HocuspocusProvider({
    url: o.url,
    name: o.room,
    document: space.doc,
    awareness: space.awareness,
    token: o.token,
  }) as unknown as ProviderLike;

const defaultPersistence = (space: TeamSpace, name: string): PersistenceLike =>
  new IndexeddbPersistence(name, space.doc);

export class TeamConnection {
  private status: TeamStatus;
  private readonly listeners = new Listeners();
  private provider: ProviderLike | null = null;
  private readonly persistence: PersistenceLike;
  private readonly now: () => number;
  private closed = false;
  /** The provider's socket as it last said, and whether its document is synced over it. */
  private socket: { status: string; synced: boolean } = { status: 'disconnected', synced: false };
  private readonly network: EventTarget | null;

  constructor(
    readonly space: TeamSpace,
    private readonly options: TeamConnectionOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.status = { link: 'connecting', since: this.now(), reason: null, local: false };
    this.persistence = (options.createPersistence ?? defaultPersistence)(space, options.localName);
    this.network = options.network !== undefined ? options.network : (globalThis.window ?? null);
  }

  /**
   * The browser lost the network: offline now, not when the provider notices the silence (30 s and
   * more). What is edited meanwhile is kept in this device's copy.
   */
  private readonly onOffline = () => {
    if (this.status.link !== 'refused') this.set({ link: 'offline' });
  };

  /**
   * The network is back: try now rather than at the end of the provider's back-off, whose attempt made
   * while offline may never end (a socket that neither opens nor fails). A socket that outlived the
   * blip is still synced: online again.
   */
  private readonly onOnline = () => {
    if (this.status.link === 'refused' || !this.provider) return;
    if (this.socket.status === 'connected' && this.socket.synced) this.set({ link: 'online', reason: null });
    else void this.provider.connect();
  };

  /**
   * Reads this device's copy first (so the team's data shows at once, online or not), upgrades it, then
   * connects to the server. Resolves once the local copy is read.
   */
  async start(): Promise<void> {
    await this.persistence.whenSynced;
    if (this.closed) return;
    this.space.upgrade();
    this.set({ local: true });
    const provider = (this.options.createProvider ?? defaultProvider)(this.space, this.options);
    this.provider = provider;
    provider.on('status', ({ status }) => {
      this.socket = { status, synced: status === 'connected' && this.socket.synced };
      if (this.status.link === 'refused') return;
      if (status === 'disconnected') this.set({ link: 'offline' });
      else if (status === 'connecting' && this.status.link !== 'offline') this.set({ link: 'connecting' });
    });
    provider.on('synced', ({ state }) => {
      this.socket = { ...this.socket, synced: state };
      if (!state || this.status.link === 'refused') return;
      // What the server held is in: a document an older studio wrote is upgraded now.
      this.space.upgrade();
      this.set({ link: 'online', reason: null });
    });
    provider.on('authenticationFailed', ({ reason }) => this.refuse(reason));
    provider.on('close', ({ event }) => {
      if (REFUSED_CODES.has(event.code)) this.refuse(event.reason);
    });
    this.network?.addEventListener('offline', this.onOffline);
    this.network?.addEventListener('online', this.onOnline);
  }

  /**
   * The server turned the key away. For a reason that says nothing is wrong with the key (the API did
   * not answer, too many connections, a restart) the provider keeps trying with its back-off; otherwise
   * no more attempts (they would be refused again) until the member turns the team space on again.
   */
  private refuse(reason: string): void {
    if (isTeamSpaceReason(reason) && TRANSIENT_REASONS.includes(reason)) {
      this.set({ link: 'offline', reason });
      return;
    }
    this.set({ link: 'refused', reason: reason || null });
    this.provider?.disconnect();
  }

  private set(change: Partial<TeamStatus>): void {
    const next = { ...this.status, ...change };
    if (change.link && change.link !== this.status.link) next.since = this.now();
    if (
      next.link === this.status.link &&
      next.reason === this.status.reason &&
      next.local === this.status.local
    )
      return;
    this.status = next;
    this.listeners.notify();
  }

  subscribe = this.listeners.subscribe;

  snapshot = (): TeamStatus => this.status;

  /** Stops syncing; this device's copy stays in IndexedDB for the next time the team space is on. */
  async close(): Promise<void> {
    this.closed = true;
    this.network?.removeEventListener('offline', this.onOffline);
    this.network?.removeEventListener('online', this.onOnline);
    this.provider?.destroy();
    this.provider = null;
    await this.persistence.destroy();
  }
}
