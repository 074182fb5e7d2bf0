import { Hocuspocus, type Connection, type Extension, type WebSocketLike } from '@hocuspocus/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { encodeStateAsUpdate } from 'yjs';
import { TEAM_SPACE_CLOSE_CODES, type TeamSpaceReason } from '../../contract/team-room';
import { archiver, type Archiver } from './archiver';
import type { ArchiveWindow } from './archive';
import { authority } from './authority';
import { hashKey, KeyChecker, type KeyCheckerOptions } from './auth';
import {
  Buckets,
  Counter,
  DEFAULT_LIMITS,
  DocumentSizes,
  remoteAddressOf,
  TokenBucket,
  type Limits,
} from './limits';
import { historyRoutes, type Admission as HistoryAdmission } from './history-routes';
import { roomPieces } from './room-pieces';
import { sqliteHistoryStore, type SqliteDatabase } from './history-sqlite';
import type { HistoryStore } from './history-store';
import { carriesUpdate, isSync, MESSAGE_TYPE, readVarUint, routeOf, SYNC, varUint } from './messages';
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
  /**
   * The referee (authority.ts): every update checked before it is applied. `enabled: false` exists for
   * the team bench's baseline only (the checks' cost is measured against it); `onReview` hears how long
   * each check took, in milliseconds.
   */
  referee?: { enabled?: boolean; onReview?: (ms: number) => void };
  /** The /me cache's timings (tests shorten them). */
  auth?: Omit<KeyCheckerOptions, 'apiBaseUrl'>;
  /**
   * Origins (e.g. https://studio.example.com) whose pages may open the WebSocket, besides a page of the
   * server's own origin (the request's Host): the studio's origin, and where a deployment serves it. A
   * request without an Origin header is not a browser's and passes (it must still authenticate).
   */
  allowedOrigins?: string[];
  /**
   * Where finished tasks past the live window go (docs/team-space.md "History at scale"): by default the
   * embedded SQLite file's tables; a cluster node passes its PostgreSQL store. False keeps every task in
   * the document (a test of the document alone).
   */
  history?: HistoryStore | false;
  /** The live window and how often rooms are looked at (tests and benches shorten them). */
  archive?: { window?: ArchiveWindow; everyMs?: number; now?: () => number };
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
  /** Closed by a transport bound: nothing more is read, sent or handled. */
  cut: boolean;
  /** Admitted to a room once: the pre-authentication bounds no longer apply. */
  admittedOnce: boolean;
  /** Stops the pre-authentication byte count and deadline (on the first admission, or the close). */
  stopPreAuth: () => void;
  /** Authentication messages sent so far. */
  attempts: number;
  /** A sync step 1 passed to Hocuspocus (that message) whose answer is not yet out of the process. */
  answeringFor?: Uint8Array;
  /** The size of that answer while it is unsent (0 when none is). */
  answerBytes: number;
  awareness: TokenBucket;
  /** Dropped presence messages tolerated before a flood is closed. */
  strikes: TokenBucket;
  /** The presence client id each document connection (its name as sent) set first: its own. */
  owners: Map<string, number>;
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
  /**
   * Answers a request for the team's history (under the path: history-routes.ts), resolving true; any
   * other request is left alone (false).
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** The history store, when there is one (tests and benches read it). */
  historyStore(): HistoryStore | undefined;
  /** Moves a held room's finished tasks past the window to the store now (tests). */
  archiveNow(room: string): Promise<number>;
  /** Checks every connected key again now (the timer does it every `recheckMs`). */
  recheck(): Promise<void>;
  /** Sockets open on the team space's path now (admitted or not): for a health page, and the tests. */
  openSockets(): number;
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

/**
 * Text a client or the API chose, as it goes into a log line: quoted and escaped (JSON), so a newline
 * cannot start a forged line, and cut to `max` characters.
 */
export const quoted = (text: string, max = 200): string =>
  JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * A document name Hocuspocus may see (and print in its own warnings): printable ASCII, with at most one
 * session suffix after a NUL (Hocuspocus's multiplexing). Rooms are `team:<id>` and `key:<id>`.
 */
// eslint-disable-next-line no-control-regex -- the NUL is Hocuspocus's session separator
const SAFE_NAME = /^[\x20-\x7e]{1,256}(\x00[\x20-\x7e]{1,256})?$/;

/** How long a socket closed by a transport bound may take to read its close frame before it is cut off. */
const CUT_GRACE_MS = 1000;

interface AwarenessEntry {
  clientId: number;
  /** The whole entry as sent (client id, clock, state JSON). */
  bytes: Uint8Array;
  /** The state's JSON, as sent ("null" is a removal). */
  json: Uint8Array;
}

/** The entries of an awareness update (y-protocols' encoding); undefined when it cannot be read. */
function awarenessEntries(update: Uint8Array): AwarenessEntry[] | undefined {
  const count = readVarUint(update, 0);
  if (!count) return undefined;
  const entries: AwarenessEntry[] = [];
  let pos = count.next;
  for (let i = 0; i < count.value; i++) {
    const clientId = readVarUint(update, pos);
    const clock = clientId && readVarUint(update, clientId.next);
    const length = clock && readVarUint(update, clock.next);
    if (!length || length.next + length.value > update.length) return undefined;
    const end = length.next + length.value;
    entries.push({
      clientId: clientId.value,
      bytes: update.subarray(pos, end),
      json: update.subarray(length.next, end),
    });
    pos = end;
  }
  return entries;
}

const NULL_STATE = new TextEncoder().encode('null');
const isRemoval = (json: Uint8Array) =>
  json.length === NULL_STATE.length && json.every((b, i) => b === NULL_STATE[i]);

export function createTeamSpace(options: TeamSpaceOptions): TeamSpace {
  const log = options.log ?? ((line: string) => console.log(`[team-space] ${line}`));
  const path = options.path ?? DEFAULT_PATH;
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const checker = new KeyChecker({ ...options.auth, apiBaseUrl: options.apiBaseUrl });
  const perKey = new Counter(limits.maxConnectionsPerKey);
  const perAddress = new Counter(limits.maxConnectionsPerAddress);
  /** Each address's budget of GET /me calls (keys the cache does not know). */
  const keyChecks = new Buckets(limits.keyChecksPerAddressBurst, limits.keyChecksPerAddressPerMinute / 60);
  /** Each key's budget of history reads (GET /sync/history), by the key's hash. */
  const historyReads = new Buckets(limits.historyReadsPerKeyBurst, limits.historyReadsPerKeyPerMinute / 60);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
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
  /** The embedded SQLite's history tables, made once its database is open. */
  let sqliteHistory: HistoryStore | undefined;
  const historyStore = (): HistoryStore | undefined => {
    if (options.history === false) return undefined;
    if (options.history) return options.history;
    const db = persistence?.extension.db as SqliteDatabase | undefined;
    if (!sqliteHistory && db) sqliteHistory = sqliteHistoryStore(db);
    return sqliteHistory;
  };
  const archive: Archiver | undefined =
    options.history === false || (!options.history && !persistence)
      ? undefined
      : archiver({ store: historyStore, log, ...options.archive });

  const closeSocket = (state: SocketState, reason: TeamSpaceReason) => {
    if (state.ws.readyState === state.ws.OPEN || state.ws.readyState === state.ws.CONNECTING) {
      state.ws.close(TEAM_SPACE_CLOSE_CODES[reason], reason);
    }
  };

  /**
   * Ends a socket that passed a transport bound: nothing more is sent to it or read from it (its unread
   * bytes are not buffered), its close frame goes out with the reason, and a moment later it is cut off
   * whether it read that or not.
   */
  const cut = (state: SocketState, reason: TeamSpaceReason) => {
    if (state.cut) return;
    state.cut = true;
    state.stopPreAuth();
    const who = [...state.admissions].map((a) => ` member=${a.memberId}`)[0] ?? '';
    log(`closed a socket${who} reason=${reason}`);
    closeSocket(state, reason);
    state.ws.pause();
    setTimeout(() => state.ws.terminate(), CUT_GRACE_MS).unref();
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
      // A socket not accepted by handleUpgrade (no state of ours) is never admitted.
      if (!socket) throw refusal('server-closing');
      try {
        return await admit(socket, token, documentName);
      } catch (e) {
        // Hocuspocus drops what this document's connection had queued, a step 1 included.
        if (socket.answerBytes === 0) socket.answeringFor = undefined;
        throw e;
      }
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

    async afterHandleMessage({ update, context }) {
      // A step 1 that produced no answer (its handling failed): the socket may ask again.
      const socket = context?.socket;
      if (socket && socket.answeringFor === update && socket.answerBytes === 0)
        socket.answeringFor = undefined;
    },

    async beforeHandleMessage({ document, update, context }) {
      if (!carriesUpdate(update) || sizes.admits(document, update.byteLength)) return;
      // Full: finished tasks past the window leave for the store first; the edit is refused only if the
      // room is still full without them.
      if (archive && (await archive.archiveNow(document)) > 0 && sizes.admits(document, update.byteLength))
        return;
      log(`refused member=${context.memberId} room=${context.room} reason=document-too-big`);
      // Throwing here keeps the update from being applied (Hocuspocus's Connection closes this
      // document's connection with our reason); then the socket goes too.
      setImmediate(() => closeSocket(context.socket, 'document-too-big'));
      throw refusal('document-too-big');
    },

    /**
     * Presence is what a client says about itself, so the server signs it: every awareness state a
     * connection sends carries that connection's member id, whatever the client put there. The studio
     * reads "who is online" from `memberId`, which no client can claim for another member. (Which
     * client ids a connection may write, how large and how often: `presenceOf`, before Hocuspocus.)
     */
    async beforeHandleAwareness({ states, context }) {
      for (const state of states.values()) if (state) state.memberId = context?.memberId ?? null;
    },

    async onChange({ document, update }) {
      sizes.grew(document, update.byteLength);
    },
  };

  /** onAuthenticate's work: the address's /me budget, the key's /me, its room, the per-key limit. */
  const admit = async (socket: SocketState, token: string, documentName: string) => {
    if (checker.wouldAsk(token) && !keyChecks.take(socket.address)) {
      log('refused reason=too-many-attempts (the address’s budget of key checks is spent)');
      setImmediate(() => cut(socket, 'too-many-attempts'));
      throw refusal('too-many-attempts');
    }
    const result = await checker.check(token);
    if (socket.closed || socket.cut || closing) throw refusal('server-closing');
    if (result.kind !== 'admitted') {
      log(`refused reason=${result.reason} (${quoted(result.detail)})`);
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
    if (result.stale) log(`admitted member=${admission.memberId} on an earlier /me answer (API unavailable)`);
    socket.admittedOnce = true;
    socket.stopPreAuth();
    return { ...admission, keyHash, admitted } satisfies Partial<TeamSpaceContext>;
  };

  const hocuspocus = new Hocuspocus<TeamSpaceContext>({
    name: 'team-space',
    quiet: true,
    extensions: [
      rules,
      ...(options.referee?.enabled === false
        ? []
        : [
            authority({
              log,
              maxDocumentBytes: limits.maxDocumentBytes,
              onReview: options.referee?.onReview,
            }),
          ]),
      ...(archive ? [archive.extension] : []),
      ...extensions,
    ],
  });

  // A hard stop well above the limit: a larger frame is dropped by `ws` itself (close 1009) before it is
  // buffered whole; between the limit and this, the socket is closed with our reason.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes * 2 });

  /**
   * Everything a socket may send before its first admission is counted on the TCP socket itself (a frame
   * being received included: `ws` would buffer a whole one, up to maxPayload, before we saw it). Past
   * maxUnauthenticatedBytes it is closed; so is a socket not admitted within authTimeoutMs.
   */
  const countPreAuth = (socket: Duplex, onOver: () => void): (() => void) => {
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > limits.maxUnauthenticatedBytes) {
        socket.off('data', count);
        onOver();
      }
    };
    // Before `ws` reads the chunk, so a socket over the bound is paused before it buffers more.
    socket.prependListener('data', count);
    return () => socket.off('data', count);
  };

  /**
   * What Hocuspocus sends through: the socket, with the bound on what it leaves unsent. The answer to a
   * sync step 1 (the whole room) always goes out, one at a time; anything else is refused when the
   * unsent bytes besides that answer would pass maxSocketBufferBytes, and the socket is cut.
   */
  const sinkOf = (state: SocketState): WebSocketLike => ({
    get readyState() {
      return state.ws.readyState;
    },
    close: (code?: number, reason?: string) => state.ws.close(code, reason),
    send: (data) => {
      if (state.cut) return;
      const bytes = data as Uint8Array;
      const ws = state.ws;
      if (isSync(bytes, SYNC.step2)) {
        if (ws.bufferedAmount > limits.maxSocketBufferBytes) return cut(state, 'slow-reader');
        state.answerBytes = bytes.byteLength;
        ws.send(bytes, () => {
          state.answerBytes = 0;
          state.answeringFor = undefined;
        });
        return;
      }
      if (ws.bufferedAmount + bytes.byteLength > limits.maxSocketBufferBytes + state.answerBytes)
        return cut(state, 'slow-reader');
      ws.send(bytes);
    },
  });

  /**
   * Presence a socket sends, before Hocuspocus reads it: at most awarenessPerSecond messages (more are
   * dropped; a sustained flood closes the socket), each entry at most maxAwarenessStateBytes, and only
   * the client id this document connection set first (its own: a provider has one; a client id another
   * member's connection holds cannot be taken). Removals (null states) follow the same rule. Answers the
   * message to hand on (rebuilt when entries were dropped), or undefined to drop it.
   */
  const presenceOf = (
    state: SocketState,
    bytes: Uint8Array,
    route: { name: string; nameEnd: number; next: number },
  ): Uint8Array | undefined => {
    if (!state.awareness.take()) {
      if (!state.strikes.take()) cut(state, 'rate-limited');
      return undefined;
    }
    const length = readVarUint(bytes, route.next);
    if (!length || length.next + length.value > bytes.length) return undefined;
    const entries = awarenessEntries(bytes.subarray(length.next, length.next + length.value));
    if (!entries) return undefined;
    let own = state.owners.get(route.name);
    let kept: AwarenessEntry | undefined;
    for (const entry of entries) {
      if (entry.json.byteLength > limits.maxAwarenessStateBytes) continue;
      if (own === undefined && !isRemoval(entry.json) && mayClaim(state, route.name, entry.clientId)) {
        own = entry.clientId;
        state.owners.set(route.name, own);
      }
      if (entry.clientId === own) kept = entry;
    }
    if (!kept) return undefined;
    if (entries.length === 1) return bytes;
    const update = Buffer.concat([Buffer.from(varUint(1)), kept.bytes]);
    return Buffer.concat([
      bytes.subarray(0, route.nameEnd),
      Buffer.from(varUint(MESSAGE_TYPE.awareness)),
      Buffer.from(varUint(update.byteLength)),
      update,
    ]);
  };

  /** Whether a connection may take this client id as its own: nobody else in the room holds it. */
  const mayClaim = (state: SocketState, rawName: string, clientId: number): boolean => {
    const document = hocuspocus.documents.get(rawName.split('\0')[0]!);
    if (!document?.awareness.getStates().has(clientId)) return true;
    // Held: only by another socket of the same member (a reconnection before the old socket's close).
    const memberId = [...state.admissions].find((a) => a.room === document.name)?.memberId;
    if (memberId === undefined) return false;
    return [...document.connections].some(
      ([connection, { clients }]) =>
        clients.has(clientId) && (connection.context as Partial<TeamSpaceContext>).memberId === memberId,
    );
  };

  /** A message as it arrives: checked against the transport's bounds, then handed to Hocuspocus. */
  const receive = (state: SocketState, client: { handleMessage(b: Uint8Array): void }, data: Uint8Array) => {
    let bytes = data;
    const route = routeOf(bytes);
    // Unreadable: Hocuspocus refuses it itself (and ends the socket).
    if (route) {
      if (!SAFE_NAME.test(route.name)) {
        log(`refused a document name ${quoted(route.name)} reason=wrong-room`);
        return cut(state, 'wrong-room');
      }
      if (route.type === MESSAGE_TYPE.auth && ++state.attempts > limits.maxAuthAttemptsPerSocket) {
        return cut(state, 'too-many-attempts');
      }
      if (isSync(bytes, SYNC.step1)) {
        // The previous answer (the whole room) is not yet out: this one would be a second copy.
        if (state.answeringFor) return cut(state, 'slow-reader');
        state.answeringFor = bytes;
      }
      if (route.type === MESSAGE_TYPE.awareness) {
        const kept = presenceOf(state, bytes, route);
        if (!kept) return;
        bytes = kept;
      }
    }
    try {
      client.handleMessage(bytes);
    } catch {
      // Hocuspocus catches what it cannot decode; anything else still ends only this socket.
      state.ws.terminate();
    }
  };

  const attach = (ws: WebSocket, raw: Duplex, req: IncomingMessage, address: string) => {
    const state: SocketState = {
      ws,
      address,
      closed: false,
      admissions: new Set(),
      cut: false,
      admittedOnce: false,
      stopPreAuth: () => undefined,
      attempts: 0,
      answerBytes: 0,
      awareness: new TokenBucket(limits.awarenessBurst, limits.awarenessPerSecond),
      strikes: new TokenBucket(limits.awarenessBurst * 4, limits.awarenessPerSecond),
      owners: new Map(),
    };
    sockets.add(state);
    // Without a listener, a protocol error on one socket would throw in the process.
    ws.on('error', (err) => log(`socket error: ${quoted(err.message)}`));
    const stopCounting = countPreAuth(raw, () => {
      log(`refused a socket: more than ${limits.maxUnauthenticatedBytes} bytes before authentication`);
      cut(state, 'message-too-big');
    });
    const deadline = setTimeout(() => {
      if (!state.admittedOnce) cut(state, 'auth-timeout');
    }, limits.authTimeoutMs);
    deadline.unref();
    state.stopPreAuth = () => {
      stopCounting();
      clearTimeout(deadline);
    };
    let request: Request;
    try {
      request = new Request(new URL(req.url ?? path, 'http://team-space.invalid'));
    } catch {
      request = new Request(`http://team-space.invalid${path}`);
    }
    const client = hocuspocus.handleConnection(sinkOf(state), request, { socket: state });
    ws.on('message', (data: RawData) => {
      if (state.cut) return;
      const bytes = Array.isArray(data) ? Buffer.concat(data) : new Uint8Array(data);
      if (bytes.byteLength > limits.maxMessageBytes) {
        log(`refused a message of ${bytes.byteLength} bytes reason=message-too-big`);
        closeSocket(state, 'message-too-big');
        return;
      }
      receive(state, client, bytes);
    });
    ws.on('close', (code, reason) => {
      state.closed = true;
      state.stopPreAuth();
      sockets.delete(state);
      perAddress.release(address);
      client.handleClose({ code, reason: reason.toString() });
      for (const admitted of [...state.admissions]) release(admitted);
    });
  };

  /**
   * A socket accepted only to say why it is refused (a refused HTTP upgrade reaches a page as a bare
   * 1006): its close frame goes out, what it sends meanwhile is bounded as before authentication, and it
   * is cut off if it has not closed within a moment.
   */
  const refuse = (ws: WebSocket, raw: Duplex, reason: TeamSpaceReason) => {
    ws.on('error', () => undefined);
    const stop = countPreAuth(raw, () => ws.terminate());
    ws.on('close', stop);
    ws.close(TEAM_SPACE_CLOSE_CODES[reason], reason);
    setTimeout(() => ws.terminate(), 2 * CUT_GRACE_MS).unref();
  };

  /**
   * Whether a browser page of this Origin may open the socket: one of allowedOrigins, or the server's
   * own origin (its host is the request's Host: /sync is on the studio's origin). No Origin: not a
   * browser, nothing to check (it must still authenticate).
   */
  const originAllowed = (req: IncomingMessage): boolean => {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    if (allowedOrigins.has(origin)) return true;
    try {
      const host = req.headers.host;
      return host !== undefined && new URL(origin).host === new URL(`http://${host}`).host;
    } catch {
      return false;
    }
  };

  const handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== path) return false;
    if (closing) {
      socket.destroy();
      return true;
    }
    const address = remoteAddressOf(req, options.trustProxy ?? false);
    // Before anything is counted: a foreign page's sockets take none of the address's places.
    if (!originAllowed(req)) {
      log(`refused a socket from origin ${quoted(String(req.headers.origin))} reason=origin-refused`);
      wss.handleUpgrade(req, socket, head, (ws) => refuse(ws, socket, 'origin-refused'));
      return true;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!perAddress.take(address)) {
        log('refused a socket reason=too-many-connections (per address)');
        refuse(ws, socket, 'too-many-connections');
        return;
      }
      attach(ws, socket, req, address);
    });
    return true;
  };

  /** A history request's key: checked as a socket's is (the address's budget of /me calls, the cache). */
  const admitRequest = async (key: string, address: string): Promise<HistoryAdmission> => {
    if (checker.wouldAsk(key) && !keyChecks.take(address))
      return { kind: 'refused', status: 429, reason: 'too-many-attempts' };
    const result = await checker.check(key);
    if (result.kind === 'unavailable') return { kind: 'refused', status: 503, reason: result.reason };
    if (result.kind === 'refused')
      return { kind: 'refused', status: result.reason === 'key-invalid' ? 401 : 403, reason: result.reason };
    if (!historyReads.take(hashKey(key))) return { kind: 'refused', status: 429, reason: 'rate-limited' };
    return { kind: 'admitted', room: admissionOf(result.me).room, reader: hashKey(key) };
  };
  const pieces = roomPieces(hocuspocus as unknown as Hocuspocus);
  const routes = historyRoutes({
    path,
    store: historyStore,
    stateOf: pieces.stateOf,
    admit: admitRequest,
    limits,
    addressOf: (req) => remoteAddressOf(req, options.trustProxy ?? false),
    allowedOrigins,
    log,
  });
  const handleRequest = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> =>
    !closing && routes(req, res);

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
    () => void recheck().catch((e: Error) => log(`re-check failed: ${quoted(e.message)}`)),
    options.recheckMs ?? DEFAULT_RECHECK_MS,
  );
  timer.unref();

  const close = async () => {
    if (closing) return;
    closing = true;
    clearInterval(timer);
    await rechecking;
    for (const state of sockets) closeSocket(state, 'server-closing');
    await pieces.close();
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
    handleRequest,
    historyStore,
    archiveNow: async (room) => {
      const document = hocuspocus.documents.get(room);
      return document && archive ? archive.archiveNow(document) : 0;
    },
    recheck,
    openSockets: () => sockets.size,
    close,
  };
}

/** Resolves once `done()` holds, or after `ms` whatever happens. */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
