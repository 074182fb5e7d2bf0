import { Hocuspocus, type Connection, type Extension, type WebSocketLike } from '@hocuspocus/server';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { encodeStateAsUpdate } from 'yjs';
import { TEAM_SPACE_CLOSE_CODES, type TeamSpaceReason } from '../../contract/team-room';
import { authority } from './authority';
import { hashKey, KeyChecker, type KeyCheckerOptions } from './auth';
import {
  Counter,
  DEFAULT_LIMITS,
  DocumentSizes,
  remoteAddressOf,
  type Limits,
} from './limits';
import { carriesUpdate } from './messages';
import { sqlitePersistence, type SqlitePersistence } from './persistence-sqlite';
import { admissionOf, mayOpen } from './rooms';

// The team-space server (docs/team-space.md): Hocuspocus on one path of an existing HTTP
// server (the studio's, so the studio's origin and CSP cover it), with our rules around it: who gets
// in (auth.ts, rooms.ts), what one client may cost (limits.ts), where documents are kept (SQLite by
// default; a cluster node passes its own extensions). Sockets are accepted with `ws` in noServer mode:
// `ws` is already a dependency of ours and of the provider's tests, and Hocuspocus v4 needs only a
// WebSocket-like object and a Request (crossws, which its own Server uses, is not ours to depend on).

export interface TeamSpaceOptions {
  /** The API's Base URL keys are checked against (GET `${apiBaseUrl}/me`). */
  apiBaseUrl: string;
  /** The data folder of the embedded SQLite file (`<dataDir>/team-space.sqlite`). Ignored with `extensions`. */
  dataDir?: string;
  /**
   * Hocuspocus extensions that persist and share documents instead of SQLite (a cluster node: the Redis
   * and PostgreSQL extensions). Given as they are; close() runs their onDestroy hooks.
   */
  extensions?: Extension[];
  /** Where lines about connections go. It is never given a key (only member ids, rooms and reasons). */
  log?: (line: string) => void;
  /** How often every connected key is checked again against /me (default 5 minutes). */
  recheckMs?: number;
  /** The WebSocket path (default /sync). */
  path?: string;
  limits?: Partial<Limits>;
  /** Count connections per address by the last X-Forwarded-For entry (behind a load balancer only). */
  trustProxy?: boolean;
  /** The /me cache's timings (tests shorten them). */
  auth?: Omit<KeyCheckerOptions, 'apiBaseUrl'>;
}

/** What each connection's Hocuspocus context holds: who the member is, never the key. */
export interface TeamSpaceContext {
  memberId?: string;
  room?: string;
  /** SHA-256 of the key, hex. */
  keyHash?: string;
  teamId?: string;
  /** Our bookkeeping for this socket and this admission (not for other extensions). */
  socket: SocketState;
  admitted?: Admitted;
}

interface SocketState {
  ws: WebSocket;
  address: string;
  closed: boolean;
  admissions: Set<Admitted>;
}

interface Admitted {
  keyHash: string;
  memberId: string;
  room: string;
  socket: SocketState;
  connection?: Connection;
  released: boolean;
}

export interface TeamSpace {
  hocuspocus: Hocuspocus<TeamSpaceContext>;
  /** The WebSocket path, e.g. /sync. */
  path: string;
  apiBaseUrl: string;
  /** The SQLite file, when the embedded persistence is used. */
  dataFile?: string;
  /** Takes an HTTP upgrade on the team space's path (answers true); any other path is left alone (false). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Checks every connected key again now (the timer does it every `recheckMs`). */
  recheck(): Promise<void>;
  /** Closes every socket, stores and unloads every document, closes the persistence. */
  close(): Promise<void>;
}

export const DEFAULT_PATH = '/sync';
export const DEFAULT_RECHECK_MS = 5 * 60_000;

/**
 * A refusal as Hocuspocus expects it from a hook: its `reason` goes to the client (as the
 * authenticationFailed reason, or in the document's close message). No `message`, so Hocuspocus
 * does not print it: we log refusals ourselves, without the key.
 */
const refusal = (reason: TeamSpaceReason) => ({ reason, code: TEAM_SPACE_CLOSE_CODES[reason] });

export function createTeamSpace(options: TeamSpaceOptions): TeamSpace {
  const log = options.log ?? ((line: string) => console.log(`[team-space] ${line}`));
  const path = options.path ?? DEFAULT_PATH;
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const checker = new KeyChecker({ ...options.auth, apiBaseUrl: options.apiBaseUrl });
  const perKey = new Counter(limits.maxConnectionsPerKey);
  const perAddress = new Counter(limits.maxConnectionsPerAddress);
  const sizes = new DocumentSizes<Parameters<typeof encodeStateAsUpdate>[0]>(
    limits.maxDocumentBytes,
    (doc) => encodeStateAsUpdate(doc).byteLength,
  );
  /**
   * The keys of open connections, by hash, for the periodic re-check: held in memory while the key has
   * a connection and dropped with its last one; never written anywhere (SECURITY.md).
   */
  const keys = new Map<string, { key: string; admitted: Set<Admitted> }>();
  const sockets = new Set<SocketState>();
  let closing = false;

  let persistence: SqlitePersistence | undefined;
  let extensions = options.extensions;
  if (!extensions) {
    if (!options.dataDir) throw new Error('createTeamSpace: give a dataDir (SQLite) or extensions.');
    persistence = sqlitePersistence(options.dataDir);
    extensions = [persistence.extension];
  }

  const closeSocket = (state: SocketState, reason: TeamSpaceReason) => {
    if (state.ws.readyState === state.ws.OPEN || state.ws.readyState === state.ws.CONNECTING) {
      state.ws.close(TEAM_SPACE_CLOSE_CODES[reason], reason);
    }
  };

  const release = (admitted: Admitted) => {
    if (admitted.released) return;
    admitted.released = true;
    perKey.release(admitted.keyHash);
    admitted.socket.admissions.delete(admitted);
    const entry = keys.get(admitted.keyHash);
    entry?.admitted.delete(admitted);
    if (entry && entry.admitted.size === 0) keys.delete(admitted.keyHash);
  };

  /** Ends one admission: the document's close message with the reason, then the socket, with it too. */
  const end = (admitted: Admitted, reason: TeamSpaceReason) => {
    log(`ended member=${admitted.memberId} room=${admitted.room} reason=${reason}`);
    admitted.connection?.close(refusal(reason));
    release(admitted);
    // After the close message has gone out on the socket.
    setImmediate(() => closeSocket(admitted.socket, reason));
  };

  const rules: Extension<TeamSpaceContext> = {
    extensionName: 'team-space-rules',
    // Before any other extension: nothing is loaded or shared for a connection we refuse.
    priority: 1000,

    async onAuthenticate({ token, documentName, context }) {
      const socket = context.socket;
      const result = await checker.check(token);
      // A socket not accepted by handleUpgrade (no state of ours) is never admitted.
      if (!socket || socket.closed || closing) throw refusal('server-closing');
      if (result.kind !== 'admitted') {
        log(`refused reason=${result.reason} (${result.detail})`);
        throw refusal(result.reason);
      }
      const admission = admissionOf(result.me);
      if (!mayOpen(admission, documentName)) {
        // The name asked for is the client's text: not logged.
        log(`refused member=${admission.memberId} reason=wrong-room`);
        throw refusal('wrong-room');
      }
      const keyHash = hashKey(token);
      if (!perKey.take(keyHash)) {
        log(`refused member=${admission.memberId} reason=too-many-connections (per key)`);
        throw refusal('too-many-connections');
      }
      const admitted: Admitted = { keyHash, ...admission, socket, released: false };
      socket.admissions.add(admitted);
      const entry = keys.get(keyHash) ?? { key: token, admitted: new Set<Admitted>() };
      entry.admitted.add(admitted);
      keys.set(keyHash, entry);
      if (result.stale)
        log(`admitted member=${admission.memberId} on an earlier /me answer (API unavailable)`);
      return { ...admission, keyHash, admitted } satisfies Partial<TeamSpaceContext>;
    },

    async connected({ context, connection }) {
      const admitted = context.admitted;
      if (!admitted) return;
      admitted.connection = connection;
      log(`connect member=${admitted.memberId} room=${admitted.room}`);
    },

    async onDisconnect({ context }) {
      const admitted = context.admitted;
      if (!admitted) return;
      log(`disconnect member=${admitted.memberId} room=${admitted.room}`);
      release(admitted);
    },

    async beforeHandleMessage({ document, update, context }) {
      if (!carriesUpdate(update) || sizes.admits(document, update.byteLength)) return;
      log(`refused member=${context.memberId} room=${context.room} reason=document-too-big`);
      // Throwing here keeps the update from being applied (Hocuspocus's Connection closes this
      // document's connection with our reason); then the socket goes too.
      setImmediate(() => closeSocket(context.socket, 'document-too-big'));
      throw refusal('document-too-big');
    },

    /**
     * Presence is what a client says about itself, so the server signs it: every awareness state a
     * connection sends carries that connection's member id, whatever the client put there. The studio
     * reads "who is online" from `memberId`, which no client can claim for another member.
     */
    async beforeHandleAwareness({ states, context }) {
      for (const state of states.values()) state.memberId = context?.memberId ?? null;
    },

    async onChange({ document, update }) {
      sizes.grew(document, update.byteLength);
    },
  };

  const hocuspocus = new Hocuspocus<TeamSpaceContext>({
    name: 'team-space',
    quiet: true,
    extensions: [rules, authority({ log }), ...extensions],
  });

  // A hard stop well above the limit: a larger frame is dropped by `ws` itself (close 1009) before it is
  // buffered whole; between the limit and this, the socket is closed with our reason.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes * 2 });

  const attach = (ws: WebSocket, req: IncomingMessage, address: string) => {
    const state: SocketState = { ws, address, closed: false, admissions: new Set() };
    sockets.add(state);
    // Without a listener, a protocol error on one socket would throw in the process.
    ws.on('error', (err) => log(`socket error: ${err.message}`));
    let request: Request;
    try {
      request = new Request(new URL(req.url ?? path, 'http://team-space.invalid'));
    } catch {
      request = new Request(`http://team-space.invalid${path}`);
    }
    const client = hocuspocus.handleConnection(ws as WebSocketLike, request, { socket: state });
    ws.on('message', (data: RawData) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : new Uint8Array(data);
      if (bytes.byteLength > limits.maxMessageBytes) {
        log(`refused a message of ${bytes.byteLength} bytes reason=message-too-big`);
        closeSocket(state, 'message-too-big');
        return;
      }
      try {
        client.handleMessage(bytes);
      } catch {
        // Hocuspocus catches what it cannot decode; anything else still ends only this socket.
        ws.terminate();
      }
    });
    ws.on('close', (code, reason) => {
      state.closed = true;
      sockets.delete(state);
      perAddress.release(address);
      client.handleClose({ code, reason: reason.toString() });
      for (const admitted of [...state.admissions]) release(admitted);
    });
  };

  const handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== path) return false;
    if (closing) {
      socket.destroy();
      return true;
    }
    const address = remoteAddressOf(req, options.trustProxy ?? false);
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!perAddress.take(address)) {
        // Accepted only to say why: a refused HTTP upgrade reaches the page as a bare 1006.
        ws.on('error', () => undefined);
        log('refused a socket reason=too-many-connections (per address)');
        ws.close(TEAM_SPACE_CLOSE_CODES['too-many-connections'], 'too-many-connections');
        return;
      }
      attach(ws, req, address);
    });
    return true;
  };

  let rechecking: Promise<void> | undefined;
  const recheckOnce = async () => {
    const entries = [...keys.values()];
    // A few at a time: thousands of members must not become a burst of /me calls.
    for (let i = 0; i < entries.length; i += 8) {
      await Promise.all(
        entries.slice(i, i + 8).map(async ({ key, admitted }) => {
          const result = await checker.check(key, { fresh: true });
          // The API cannot say: nobody is put out for the API's outage.
          if (result.kind === 'unavailable') return;
          const room = result.kind === 'admitted' ? admissionOf(result.me).room : undefined;
          for (const a of [...admitted]) {
            if (result.kind === 'refused') end(a, result.reason);
            else if (a.room !== room) end(a, 'wrong-room');
          }
        }),
      );
    }
  };
  const recheck = () => (rechecking ??= recheckOnce().finally(() => (rechecking = undefined)));
  const timer = setInterval(
    () => void recheck().catch((e: Error) => log(`re-check failed: ${e.message}`)),
    options.recheckMs ?? DEFAULT_RECHECK_MS,
  );
  timer.unref();

  const close = async () => {
    if (closing) return;
    closing = true;
    clearInterval(timer);
    await rechecking;
    for (const state of sockets) closeSocket(state, 'server-closing');
    // A client that does not answer the close within a second is cut off.
    await waitFor(() => sockets.size === 0, 1000);
    for (const state of sockets) state.ws.terminate();
    await waitFor(() => {
      hocuspocus.flushPendingStores();
      return hocuspocus.getDocumentsCount() === 0;
    }, 10_000);
    wss.close();
    await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
    persistence?.close();
  };

  return {
    hocuspocus,
    path,
    apiBaseUrl: options.apiBaseUrl,
    ...(persistence ? { dataFile: persistence.file } : {}),
    handleUpgrade,
    recheck,
    close,
  };
}

/** Resolves once `done()` holds, or after `ms` whatever happens. */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
