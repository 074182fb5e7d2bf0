import { createHash } from 'node:crypto';
import { ErrorBodySchema } from '../../contract/error';
import { MeSchema, type Me } from '../../contract/me';
import type { TeamSpaceReason } from '../../contract/team-room';

// The team-space server's one question to the API: is this key good, and whose is it? Asked with
// GET /me (api-notes §2 "Key", §5 "Authentication", §7 "Errors"), answered per key from a short cache
// keyed by the key's SHA-256 (never the key), so a reconnect storm asks /me once per key, not once per
// socket. Nothing here stores, logs or returns the key.

/** The three outcomes of a check. */
export type KeyCheck =
  /** The API answered /me: the key is good. `stale` when that answer is older than the API's outage. */
  | { kind: 'admitted'; me: Me; stale?: boolean }
  /** The API refused the key: refuse a new connection and end the key's open ones. */
  | {
      kind: 'refused';
      reason: Extract<TeamSpaceReason, 'key-invalid' | 'account-banned' | 'key-unbound'>;
      detail: string;
    }
  /** The API could not say (unreachable, 5xx, 429, an answer we cannot read): keep open connections. */
  | { kind: 'unavailable'; reason: 'api-unavailable'; detail: string };

export interface KeyCheckerOptions {
  /** The API's Base URL, e.g. http://127.0.0.1:4010/v1: /me is asked at `${apiBaseUrl}/me`. */
  apiBaseUrl: string;
  /** How long an admission is reused (default 30 s). */
  admitTtlMs?: number;
  /** How long a refusal is reused (default 10 s: a key fixed in the account shows soon). */
  refusalTtlMs?: number;
  /** How long "the API did not answer" is reused (default 2 s: spares an API that is struggling). */
  unavailableTtlMs?: number;
  /**
   * While the API is unavailable, an admission this recent is still honoured (default 15 min), so a
   * member whose socket dropped during an API outage gets back in. Longer outages refuse new sockets.
   */
  staleAdmitMs?: number;
  /** How long /me may take (default 10 s). */
  timeoutMs?: number;
  /** Most keys remembered at once (default 10,000): a flood of made-up tokens cannot grow memory. */
  maxEntries?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

/** The SHA-256 of a key, hex: how the server names a key anywhere it must (cache, limits, logs never). */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * What a key looks like before anyone is asked: printable ASCII, no spaces, a sane length. api-notes
 * §5 gives the shape (a prefix, live_, 32 characters); the prefix is not ours to know, so this only
 * turns away what cannot be a key, without spending a /me call on it.
 */
const PLAUSIBLE_KEY = /^[\x21-\x7e]{8,256}$/;

interface Entry {
  result: KeyCheck;
  expiresAt: number;
}

export class KeyChecker {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<KeyCheck>>();
  /** The last admission per key hash, with when it was answered: honoured during an API outage. */
  private readonly lastAdmit = new Map<string, { me: Me; at: number }>();
  private readonly meUrl: string;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  /** How many times /me was actually asked (tests and the bench read it). */
  requests = 0;

  constructor(private readonly options: KeyCheckerOptions) {
    this.meUrl = `${options.apiBaseUrl.replace(/\/+$/, '')}/me`;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
  }

  /**
   * The key's standing. `fresh` skips the cache (the periodic re-check) but still joins a request
   * already in flight for the same key.
   */
  async check(key: string, { fresh = false }: { fresh?: boolean } = {}): Promise<KeyCheck> {
    if (!PLAUSIBLE_KEY.test(key)) {
      return { kind: 'refused', reason: 'key-invalid', detail: 'not shaped like an API key' };
    }
    const hash = hashKey(key);
    if (!fresh) {
      const cached = this.cache.get(hash);
      if (cached && cached.expiresAt > this.now()) return cached.result;
    }
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const request = this.ask(key, hash).finally(() => this.inFlight.delete(hash));
    this.inFlight.set(hash, request);
    return request;
  }

  /**
   * Whether checking this key now would ask the API (it is plausible, not in the cache, not in flight):
   * the server spends an address's budget of /me calls only on those (a flood of made-up tokens).
   */
  wouldAsk(key: string): boolean {
    if (!PLAUSIBLE_KEY.test(key)) return false;
    const hash = hashKey(key);
    const cached = this.cache.get(hash);
    return !(cached && cached.expiresAt > this.now()) && !this.inFlight.has(hash);
  }

  /** Forgets everything known about a key (its connections are gone). */
  forget(hash: string): void {
    this.cache.delete(hash);
    this.lastAdmit.delete(hash);
  }

  private async ask(key: string, hash: string): Promise<KeyCheck> {
    this.requests++;
    let result = await this.askApi(key);
    const now = this.now();
    if (result.kind === 'admitted') {
      this.remember(this.lastAdmit, hash, { me: result.me, at: now });
    } else if (result.kind === 'refused') {
      this.lastAdmit.delete(hash);
    } else {
      const last = this.lastAdmit.get(hash);
      if (last && now - last.at <= (this.options.staleAdmitMs ?? 15 * 60_000)) {
        result = { kind: 'admitted', me: last.me, stale: true };
      }
    }
    const ttl =
      result.kind === 'admitted' && !result.stale
        ? (this.options.admitTtlMs ?? 30_000)
        : result.kind === 'refused'
          ? (this.options.refusalTtlMs ?? 10_000)
          : (this.options.unavailableTtlMs ?? 2_000);
    this.remember(this.cache, hash, { result, expiresAt: now + ttl }, (e) => e.expiresAt <= now);
    return result;
  }

  /** Sets an entry; when the map is full, first what `stale` says is stale, then the oldest. */
  private remember<V>(map: Map<string, V>, hash: string, value: V, stale?: (v: V) => boolean): void {
    map.delete(hash);
    const max = this.options.maxEntries ?? 10_000;
    if (map.size >= max && stale) for (const [k, v] of map) if (stale(v)) map.delete(k);
    while (map.size >= max) map.delete(map.keys().next().value!);
    map.set(hash, value);
  }

  /** One GET /me, its answer sorted into the three outcomes. */
  private async askApi(key: string): Promise<KeyCheck> {
    let res: Response;
    try {
      res = await this.fetch(this.meUrl, {
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
        // A redirect would carry the key to wherever it points: never followed.
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (e) {
      const name = (e as Error).name;
      return unavailable(name === 'TimeoutError' ? 'GET /me timed out' : 'GET /me could not be reached');
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    if (res.ok) {
      const me = MeSchema.safeParse(body);
      if (!me.success) return unavailable(`GET /me answered ${res.status} with a body that is not a key`);
      // api-notes §2: a key whose project was deleted answers /me with project.bound false.
      if (me.data.project.bound === false) {
        return { kind: 'refused', reason: 'key-unbound', detail: 'the key’s project was deleted' };
      }
      return { kind: 'admitted', me: me.data };
    }
    const code = ErrorBodySchema.safeParse(body).data?.error.code;
    // api-notes §5 item 8, §7: 401 missing/invalid token (revoked, expired, unknown), 403 banned,
    // 403 or 422 token_project_unbound. Anything else says nothing about the key: treated as an outage,
    // so a misconfigured or failing API never ends the members' connections.
    if (res.status === 401) {
      return { kind: 'refused', reason: 'key-invalid', detail: `401 ${code ?? 'without a code'}` };
    }
    if (res.status === 403 && code === 'account_banned') {
      return { kind: 'refused', reason: 'account-banned', detail: '403 account_banned' };
    }
    if ((res.status === 403 || res.status === 422) && code === 'token_project_unbound') {
      return { kind: 'refused', reason: 'key-unbound', detail: `${res.status} token_project_unbound` };
    }
    return unavailable(`GET /me answered ${res.status}${code ? ` ${code}` : ''}`);
  }
}

const unavailable = (detail: string): KeyCheck => ({
  kind: 'unavailable',
  reason: 'api-unavailable',
  detail,
});
