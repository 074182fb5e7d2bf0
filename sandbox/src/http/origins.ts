// Which web origins may use the control API and read uploads (README: Origins). The sandbox's own
// origin always may; others only when listed (`allowedOrigins`, --allow-origin, SANDBOX_ALLOWED_ORIGINS),
// which `npm start` does for the studio it serves. Loopback names are interchangeable:
// http://127.0.0.1:4173 also allows http://localhost:4173 and http://[::1]:4173.

import { hostnameOfHostHeader, isLoopbackHost } from '../../../node-shared/hosts';

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** The serialized origin of a URL-ish string, or null when it is not an http(s) origin. */
function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** An origin and, for a loopback host, the same origin under the other loopback names. */
function withAliases(origin: string): string[] {
  const url = new URL(origin);
  if (!isLoopbackHost(url.hostname)) return [origin];
  return LOOPBACK.map((name) => {
    const alias = new URL(origin);
    alias.hostname = name;
    return alias.origin;
  });
}

export class OriginPolicy {
  private own = new Set<string>();
  private allowed = new Set<string>();
  private hostnames = new Set<string>();
  private anyHost = false;
  /** The API (/v1) answers every web origin, not only these (--api-any-origin). */
  apiAnyOrigin = false;

  /** Called once the port is known: the origins the sandbox itself is reached at. */
  setSelf(origins: string[], listenHost: string): void {
    this.own = new Set(origins.flatMap((o) => (normalizeOrigin(o) ? withAliases(normalizeOrigin(o)!) : [])));
    this.anyHost = WILDCARD_HOSTS.has(listenHost);
    this.hostnames = new Set([...this.own].map((o) => new URL(o).hostname));
  }

  setAllowed(origins: string[]): void {
    const list = origins.map((o) => {
      const origin = normalizeOrigin(o);
      if (!origin) throw new Error(`not an http(s) origin: ${JSON.stringify(o)}`);
      return origin;
    });
    this.allowed = new Set(list.flatMap(withAliases));
  }

  get allowedOrigins(): string[] {
    return [...this.allowed];
  }

  /** Same-origin or listed. */
  allows(origin: string): boolean {
    return this.own.has(origin) || this.allowed.has(origin);
  }

  /** Whether a web page on `origin` may call the API (/v1); clients that send no Origin always may. */
  allowsApi(origin: string | undefined): boolean {
    return origin === undefined || this.apiAnyOrigin || this.allows(origin);
  }

  /**
   * Refuses a Host that is not a name the sandbox is reached at (its own, the public URL's, or an exact
   * loopback name), so a page on a rebound DNS name is not served as same-origin. Any Host is accepted
   * when listening on every interface (0.0.0.0, ::): the network names are not known then.
   */
  checkHost(host: string | undefined): string | null {
    if (this.anyHost || host === undefined) return null;
    const hostname = hostnameOfHostHeader(host);
    if (hostname !== null && (this.hostnames.has(hostname) || isLoopbackHost(hostname))) return null;
    return `The sandbox answers this only at ${[...this.hostnames].join(', ')}, not at host ${JSON.stringify(host.slice(0, 100))}.`;
  }

  /**
   * Whether a request to the control API may be answered. A browser names the calling page in Origin
   * (every cross-origin request, and same-origin ones but GET/HEAD), or at least in Sec-Fetch-Site;
   * clients that send neither (curl, tests, Node) are not web pages and may. The Host must be a name the
   * sandbox is reached at, so a page on a rebound DNS name cannot call it as "same-origin".
   */
  check(headers: { origin?: string; host?: string; fetchSite?: string }): string | null {
    const wrongHost = this.checkHost(headers.host);
    if (wrongHost) return wrongHost;
    if (headers.origin !== undefined) {
      return this.allows(headers.origin)
        ? null
        : `Origin ${headers.origin} may not use the sandbox's control API. Allow it with --allow-origin or SANDBOX_ALLOWED_ORIGINS.`;
    }
    if (
      headers.fetchSite !== undefined &&
      headers.fetchSite !== 'same-origin' &&
      headers.fetchSite !== 'none'
    )
      return 'A page on another origin may not use the sandbox control API.';
    return null;
  }
}
