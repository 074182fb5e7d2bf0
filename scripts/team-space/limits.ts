// Bounds on what one client can cost the server (docs/team-space.md "Settings, limits and reasons"): the size
// of one WebSocket message, the size of a room's document, and how many sockets one key or one address holds.

export interface Limits {
  /** One WebSocket message (default 2 MiB). See DEFAULT_LIMITS for why not smaller. */
  maxMessageBytes: number;
  /** A room's document, as its encoded Yjs state (default 32 MiB). */
  maxDocumentBytes: number;
  /** Connections one key holds at once (default 20: a few tabs on a few devices). */
  maxConnectionsPerKey: number;
  /** Sockets one remote address holds at once (default 50: an office behind one NAT). */
  maxConnectionsPerAddress: number;
}

/**
 * A message carries one Yjs update, and the largest a well-behaved studio sends is the sync step 2 of
 * edits made while offline (everything the server lacks, in one message): 2 MiB holds a couple of
 * thousand tasks. A room of 10,000 team tasks (the bench) must fit the document limit with room to spare.
 */
export const DEFAULT_LIMITS: Limits = {
  maxMessageBytes: 2 * 1024 * 1024,
  maxDocumentBytes: 32 * 1024 * 1024,
  maxConnectionsPerKey: 20,
  maxConnectionsPerAddress: 50,
};

/**
 * A room's document size, kept without encoding the whole document on every message: the exact size
 * once, then every applied update's length added (an update never grows the encoded state by much
 * more than its own length; deletions shrink it). When the running figure would cross the limit, it is
 * measured again exactly before anything is refused.
 */
export class DocumentSizes<D extends object> {
  private readonly sizes = new WeakMap<D, number>();

  constructor(
    private readonly maxBytes: number,
    private readonly measure: (doc: D) => number,
  ) {}

  /** Called for every update applied to the document, whatever its origin (a client, Redis, a load). */
  grew(doc: D, updateBytes: number): void {
    const size = this.sizes.get(doc);
    if (size !== undefined) this.sizes.set(doc, size + updateBytes);
  }

  /** Whether a message of this many bytes may be applied without the document passing the limit. */
  admits(doc: D, incomingBytes: number): boolean {
    let size = this.sizes.get(doc);
    if (size === undefined || size + incomingBytes > this.maxBytes) {
      size = this.measure(doc);
      this.sizes.set(doc, size);
    }
    return size + incomingBytes <= this.maxBytes;
  }
}

/** Counts of something per name (a key hash, an address), with a ceiling. */
export class Counter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes one for `name`, or answers false when it already holds the most. */
  take(name: string): boolean {
    const n = this.counts.get(name) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(name, n + 1);
    return true;
  }

  release(name: string): void {
    const n = (this.counts.get(name) ?? 0) - 1;
    if (n > 0) this.counts.set(name, n);
    else this.counts.delete(name);
  }

  count(name: string): number {
    return this.counts.get(name) ?? 0;
  }
}

/**
 * The address a socket counts against. Behind a load balancer every socket comes from the balancer,
 * so with `trustProxy` the last X-Forwarded-For entry (the one the balancer appended) is used instead;
 * without it the header is ignored, since any client can send one.
 */
export function remoteAddressOf(
  req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } },
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const value = Array.isArray(header) ? header.at(-1) : header;
    const last = value?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
