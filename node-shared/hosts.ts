// Which host names are this machine's loopback, for the control API's and uploads' Host check
// (README: Origins) and for refusing to listen on the network unasked (`npm start`, `npm run sandbox`).
// Exact names and addresses only: a prefix test ("starts with 127.") lets a rebound DNS name such as
// 127.0.0.1.nip.io or 127.evil.example pass for loopback, and a page there could then read the demo keys.
// Pure (no Node API). Shared by the sandbox and the studio's servers (docs/ARCHITECTURE.md: node-shared).

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** 127.0.0.0/8 as a dotted quad of decimal octets (no leading zeros, each 0-255). */
const LOOPBACK_V4 = new RegExp(`^127(\\.${OCTET}){3}$`);

/** Whether a host name (as in a URL or a Host header, without the port) is loopback, exactly. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '::1' || name === '[::1]' || LOOPBACK_V4.test(name);
}

/**
 * The host name of a Host header, without its port, lower-cased and not normalized in any other way
 * (a URL parser would turn `127.1` into `127.0.0.1`; a browser never sends the short form, so it is
 * refused as not a name of ours). IPv6 keeps its brackets. Null when the header is malformed.
 */
export function hostnameOfHostHeader(host: string): string | null {
  const value = host.trim().toLowerCase();
  const v6 = /^(\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(value);
  if (v6) return v6[1]!;
  const named = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  return named ? named[1]! : null;
}

/** An IPv6 address in brackets, as a URL needs it (`::1` -> `[::1]`); other hosts as they are. */
export const hostForUrl = (host: string): string =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

/** A host to listen on: an IPv6 address without the brackets a URL gives it (`[::1]` -> `::1`). */
export const hostForListen = (host: string): string => host.replace(/^\[(.*)\]$/, '$1');

/**
 * A host other than loopback exposes the studio and the sandbox's control API (demo keys, faults, the
 * clock) to the network: refused unless asked for with --allow-remote (or STUDIO_ALLOW_REMOTE=1), and
 * then warned about. Answers the warning to print, or throws the refusal.
 */
export function checkHosts(hosts: readonly string[], allowRemote: boolean): string | undefined {
  const remote = [...new Set(hosts.filter((h) => !isLoopbackHost(h)))];
  if (remote.length === 0) return undefined;
  const what = `HOST ${remote.join(', ')} is not loopback: anyone on the network could use this studio and the sandbox's control API (its demo keys, faults and clock).`;
  if (!allowRemote) {
    throw new Error(
      `${what} Refused. Use HOST=127.0.0.1, or, on a network you trust, add --allow-remote (or STUDIO_ALLOW_REMOTE=1).`,
    );
  }
  return `Warning: ${what} Allowed by --allow-remote; do not do this on a network you do not trust.`;
}
