import type { IncomingMessage, ServerResponse } from 'node:http';
import { HistoryPageQuery, TEAM_HISTORY_ROUTES } from '../../contract/team-history';
import { MAX_STATE_VECTOR_BYTES, TEAM_STATE_ROUTE } from '../../contract/team-state';
import type { HistoryStore } from './history-store';
import type { Limits } from './limits';

// What members read over HTTP beside the socket: the team's history (docs/team-space.md "History at
// scale"), two GET routes answered from the store, and the room's content in pieces (POST, "Joining in
// pieces": the body the member's state vector). A member proves who they are as on the socket, with
// their key, here in the Authorization header (never in the URL, so never in a proxy's log); the room
// answered is the one their key admits them to, whatever they ask. What a route may cost: the key
// check is the socket's (its per-address budget of /me calls, its cache), and every read takes one of
// the key's reads (the same budget for all three routes), a page at most MAX_PAGE tasks. The room's
// answer is as large as the room: it is written a piece at a time as the reader takes it in (never
// framed whole per request), a key may have `maxRoomReadsPerKey` of them unanswered at once, and one not
// taken in within `roomReadTimeoutMs` is cut off, so a member who asks and never reads holds little.

export type Admission =
  /** `reader`: who asks (a hash of the key), for the key's own bounds. */
  | { kind: 'admitted'; room: string; reader: string }
  | { kind: 'refused'; status: 401 | 403 | 429 | 503; reason: string };

export interface HistoryRoutesOptions {
  path: string;
  store: () => HistoryStore | undefined;
  /**
   * The room's content this state vector lacks, in pieces (contract/team-state.ts); null when the bytes
   * are not a state vector.
   */
  stateOf: (room: string, stateVector: Uint8Array) => Promise<Uint8Array[] | null>;
  /** Who the key is, and which room it opens (the socket's own check). */
  admit: (key: string, address: string) => Promise<Admission>;
  limits: Pick<Limits, 'maxRoomReadsPerKey' | 'roomReadTimeoutMs'>;
  addressOf: (req: IncomingMessage) => string;
  /** Origins besides the server's own whose pages may read (the socket's allowedOrigins). */
  allowedOrigins: ReadonlySet<string>;
  log: (line: string) => void;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(JSON.stringify(body));
};

/** Answers true when the request was one of the history routes (answered), false to leave it alone. */
export function historyRoutes(options: HistoryRoutesOptions) {
  const tasksPath = options.path + TEAM_HISTORY_ROUTES.tasks;
  const monthsPath = options.path + TEAM_HISTORY_ROUTES.months;
  const statePath = options.path + TEAM_STATE_ROUTE;
  /** Per reader, their answers of the room not yet taken in. */
  const roomReads = new Map<string, number>();
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://team-space.invalid');
    if (url.pathname !== tasksPath && url.pathname !== monthsPath && url.pathname !== statePath) return false;
    const method = url.pathname === statePath ? 'POST' : 'GET';
    // A page of another origin may read only when allowed (the server's own origin needs no header).
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin && options.allowedOrigins.has(origin)
        ? { 'access-control-allow-origin': origin, vary: 'Origin' }
        : {};
    if (req.method === 'OPTIONS' && cors['access-control-allow-origin']) {
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': method,
        'access-control-allow-headers': method === 'POST' ? 'authorization, content-type' : 'authorization',
        'access-control-max-age': '600',
      });
      res.end();
      return true;
    }
    if (req.method !== method) {
      json(res, 405, { error: 'method-not-allowed' }, { allow: method, ...cors });
      return true;
    }
    const store = method === 'GET' ? options.store() : undefined;
    if (method === 'GET' && !store) {
      json(res, 404, { error: 'no-history-store' }, cors);
      return true;
    }
    const header = req.headers.authorization ?? '';
    const key = /^Bearer (\S{1,1000})$/.exec(header)?.[1];
    if (!key) {
      json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer', ...cors });
      return true;
    }
    // The body before the key check: one too large is refused without spending a /me call.
    const body = method === 'POST' ? await readBody(req, MAX_STATE_VECTOR_BYTES) : null;
    if (method === 'POST' && !body) {
      json(res, 413, { error: 'too-large' }, cors);
      return true;
    }
    const admission = await options.admit(key, options.addressOf(req));
    if (admission.kind === 'refused') {
      json(res, admission.status, { error: admission.reason }, cors);
      return true;
    }
    try {
      if (body) {
        const reading = roomReads.get(admission.reader) ?? 0;
        if (reading >= options.limits.maxRoomReadsPerKey) {
          json(res, 429, { error: 'rate-limited' }, { 'retry-after': '5', ...cors });
          return true;
        }
        roomReads.set(admission.reader, reading + 1);
        try {
          const pieces = await options.stateOf(admission.room, body);
          if (!pieces) {
            json(res, 400, { error: 'invalid-state-vector' }, cors);
            return true;
          }
          await sendPieces(res, pieces, options.limits.roomReadTimeoutMs, cors);
        } finally {
          const left = roomReads.get(admission.reader)! - 1;
          if (left > 0) roomReads.set(admission.reader, left);
          else roomReads.delete(admission.reader);
        }
        return true;
      }
      if (!store) return true;
      if (url.pathname === monthsPath) {
        json(res, 200, { months: await store.months(admission.room) }, cors);
        return true;
      }
      const parsed = HistoryPageQuery.safeParse(Object.fromEntries(url.searchParams));
      if (!parsed.success) {
        json(
          res,
          400,
          { error: 'invalid-query', detail: parsed.error.issues.map((i) => i.path.join('.')) },
          cors,
        );
        return true;
      }
      json(res, 200, await store.page(admission.room, parsed.data), cors);
    } catch (e) {
      options.log(`${body ? 'room' : 'history'} read failed: ${JSON.stringify((e as Error).message)}`);
      json(res, 503, { error: 'store-unavailable' }, cors);
    }
    return true;
  };
}

/**
 * The room's pieces as contract/team-state.ts frames them (each a 4-byte length and its bytes), written
 * one at a time as the reader takes them in (the pieces are the server's, often shared by every reader
 * from nothing: no copy is made). Resolves when all is written or the connection is gone; a reader that
 * has not taken it all in within `timeoutMs` is cut off.
 */
async function sendPieces(
  res: ServerResponse,
  pieces: readonly Uint8Array[],
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': String(pieces.reduce((n, p) => n + 4 + p.byteLength, 0)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  const deadline = setTimeout(() => res.destroy(), timeoutMs);
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  try {
    for (const piece of pieces) {
      if (res.destroyed) return;
      const length = new Uint8Array(4);
      new DataView(length.buffer).setUint32(0, piece.byteLength);
      res.write(length);
      // Past the stream's mark: wait until the reader has taken it (or is gone).
      if (!res.write(piece)) await Promise.race([new Promise((r) => res.once('drain', r)), gone]);
    }
    res.end();
    await gone;
  } finally {
    clearTimeout(deadline);
  }
}

/** The request's body, or null when it passes `max` bytes (the rest is not read). */
async function readBody(req: IncomingMessage, max: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
