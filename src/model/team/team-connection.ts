import { HocuspocusProvider } from '@hocuspocus/provider';
import { schemaVersionOf, TEAM_DOC_VERSION } from '../../../contract/team-doc';
import {
  CHANGE_REFUSALS,
  isTeamSpaceReason,
  TRANSIENT_REASONS,
  type TeamSpaceReason,
} from '../../../contract/team-room';
import { openLocalCopy, type PersistenceLike } from './team-local-copy';
import type { TeamSpace } from './team-space';
import { Listeners } from '../../lib/store';

// The team space's connection (docs/team-space.md): the room's document kept on this device in
// IndexedDB (team-local-copy.ts: what is edited offline is kept, and merged by Yjs on return; read in
// pieces, a task each) and synced through the
// Hocuspocus server by its provider (which reconnects by itself, with back-off). This module only
// watches them and says, in a form a status line can show, whether the team space is online, offline
// since when, or refused and why. The API key is the provider's token: sent in the WebSocket's first
// message, never in a URL.
//
// The server migrates a room when it loads it (contract/team-doc.ts): this studio never writes `meta`.
// A room of a version above the contract's was migrated by a newer server: the status says so (reload).
// A change the server refused whole (CHANGE_REFUSALS) ends this connection: the refused update stays in
// this device's copy and would be sent again at every reconnect, so the session (team-session.ts) drops
// the copy and joins afresh; this module only stops, says why and tells its listeners.

type TeamLink =
  /** Opening: this device's copy is being read, or the server not reached yet. */
  | 'connecting'
  /** Connected, authenticated and in step with the server. */
  | 'online'
  /** The server cannot be reached: work goes on here and is shared on return. */
  | 'offline'
  /** The server turned the key away (revoked, expired, banned, unbound, not this room), or refused a change. */
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
  /** The room's schema version is above what this studio reads (a newer server): reload the studio. */
  newer: boolean;
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
  /**
   * Reads what the room holds beyond this copy before the socket syncs (team-preload.ts: in pieces, a
   * task each); resolves when done or given up. Without it the socket brings the room.
   */
  preload?: (space: TeamSpace, stopped: () => boolean) => Promise<unknown>;
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
  openLocalCopy(space.doc, name);

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
  private readonly refusals = new Listeners<[reason: TeamSpaceReason]>();

  constructor(
    readonly space: TeamSpace,
    private readonly options: TeamConnectionOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.status = { link: 'connecting', since: this.now(), reason: null, local: false, newer: false };
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
   * Reads this device's copy first (so the team's data shows at once, online or not), then what the
   * room holds beyond it (the preload, in pieces), then connects to the server. Resolves once the local
   * copy is read.
   */
  async start(): Promise<void> {
    await this.persistence.whenSynced;
    if (this.closed) return;
    this.set({ local: true, newer: this.newer() });
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.options.preload) {
      await this.options.preload(this.space, () => this.closed);
      if (this.closed) return;
      this.set({ newer: this.newer() });
    }
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
      // What the server held is in, migrated by it: a version above this studio's asks for a reload.
      this.set({ link: 'online', reason: null, newer: this.newer() });
    });
    provider.on('authenticationFailed', ({ reason }) => this.refuse(reason));
    provider.on('close', ({ event }) => {
      // A refused change comes as the document's close message (Hocuspocus gives it code 1000) or as
      // the socket's close code: the reason says which.
      if (isTeamSpaceReason(event.reason) && CHANGE_REFUSALS.includes(event.reason))
        this.refuseChange(event.reason);
      else if (REFUSED_CODES.has(event.code)) this.refuse(event.reason);
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

  private newer(): boolean {
    return schemaVersionOf(this.space.doc) > TEAM_DOC_VERSION;
  }

  /**
   * The server refused one of this device's changes, whole. No more attempts on this copy: the provider
   * would send the same update again at every reconnect. The listeners (the session) decide what next.
   */
  private refuseChange(reason: TeamSpaceReason): void {
    if (this.status.link === 'refused' && this.status.reason === reason) return;
    this.set({ link: 'refused', reason });
    this.provider?.disconnect();
    this.refusals.notify(reason);
  }

  /** Told once each time the server refuses a change of this device's (with the reason). */
  onChangeRefused = this.refusals.subscribe;

  private set(change: Partial<TeamStatus>): void {
    const next = { ...this.status, ...change };
    if (change.link && change.link !== this.status.link) next.since = this.now();
    if (
      next.link === this.status.link &&
      next.reason === this.status.reason &&
      next.local === this.status.local &&
      next.newer === this.status.newer
    )
      return;
    this.status = next;
    this.listeners.notify();
  }

  subscribe = this.listeners.subscribe;

  snapshot = (): TeamStatus => this.status;

  /**
   * Stops syncing; this device's copy stays in IndexedDB for the next time the team space is on, unless
   * `dropCopy` (a refused change sits in it): then its database is deleted.
   */
  async close({ dropCopy = false }: { dropCopy?: boolean } = {}): Promise<void> {
    this.closed = true;
    this.refusals.clear();
    this.network?.removeEventListener('offline', this.onOffline);
    this.network?.removeEventListener('online', this.onOnline);
    this.provider?.destroy();
    this.provider = null;
    if (dropCopy) await this.persistence.clearData();
    else await this.persistence.destroy();
  }
}
