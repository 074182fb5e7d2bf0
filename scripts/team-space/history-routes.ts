import type { IncomingMessage, ServerResponse } from 'node:http';
import { HistoryPageQuery, TEAM_HISTORY_ROUTES } from '../../contract/team-history';
import type { HistoryStore } from './history-store';

// The team's history as members read it (docs/team-space.md "History at scale"): two GET routes under
// the team space's path, answered from the store. A member proves who they are as on the socket, with
// their key, here in the Authorization header (never in the URL, so never in a proxy's log); the room
// answered is the one their key admits them to, whatever they ask. What a route may cost: the key
// check is the socket's (its per-address budget of /me calls, its cache), a page at most MAX_PAGE tasks.

export type Admission =
  { kind: 'admitted'; room: string } | { kind: 'refused'; status: 401 | 403 | 429 | 503; reason: string };

export interface HistoryRoutesOptions {
  path: string;
  store: () => HistoryStore | undefined;
  /** Who the key is, and which room it opens (the socket's own check). */
  admit: (key: string, address: string) => Promise<Admission>;
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
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://team-space.invalid');
    if (url.pathname !== tasksPath && url.pathname !== monthsPath) return false;
    // A page of another origin may read only when allowed (the server's own origin needs no header).
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin && options.allowedOrigins.has(origin)
        ? { 'access-control-allow-origin': origin, vary: 'Origin' }
        : {};
    if (req.method === 'OPTIONS' && cors['access-control-allow-origin']) {
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET',
        'access-control-allow-headers': 'authorization',
        'access-control-max-age': '600',
      });
      res.end();
      return true;
    }
    if (req.method !== 'GET') {
      json(res, 405, { error: 'method-not-allowed' }, { allow: 'GET', ...cors });
      return true;
    }
    const store = options.store();
    if (!store) {
      json(res, 404, { error: 'no-history-store' }, cors);
      return true;
    }
    const header = req.headers.authorization ?? '';
    const key = /^Bearer (\S{1,1000})$/.exec(header)?.[1];
    if (!key) {
      json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer', ...cors });
      return true;
    }
    const admission = await options.admit(key, options.addressOf(req));
    if (admission.kind === 'refused') {
      json(res, admission.status, { error: admission.reason }, cors);
      return true;
    }
    try {
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
      options.log(`history read failed: ${JSON.stringify((e as Error).message)}`);
      json(res, 503, { error: 'store-unavailable' }, cors);
    }
    return true;
  };
}
