// Bounds on what one client can cost the server (docs/team-space.md "Settings, limits and reasons"): the size
// of one WebSocket message, the size of a room's document, how many sockets one key or one address holds,
// and the transport's bounds: what a socket may leave unread, what a stranger may send or cost before it
// has authenticated, and how fast a member may send presence.

export interface Limits {
  /** One WebSocket message (default 2 MiB). See DEFAULT_LIMITS for why not smaller. */
  maxMessageBytes: number;
  /** A room's document, as its encoded Yjs state (default 32 MiB). */
  maxDocumentBytes: number;
  /** Connections one key holds at once (default 20: a few tabs on a few devices). */
  maxConnectionsPerKey: number;
  /** Sockets one remote address holds at once (default 50: an office behind one NAT). */
  maxConnectionsPerAddress: number;
  /**
   * Bytes the server may hold unsent for one socket (ws `bufferedAmount`) on top of the one answer to a
   * sync step 1 in flight (default 8 MiB). Past it the socket is a slow reader: closed, nothing more sent.
   */
  maxSocketBufferBytes: number;
  /** Bytes one socket may send before its first admission, frames included (default 128 KiB). */
  maxUnauthenticatedBytes: number;
  /** How long a socket has to be admitted before it is closed with auth-timeout (default 10 s). */
  authTimeoutMs: number;
  /** Authentication messages one socket may send (default 3); one more closes it (too-many-attempts). */
  maxAuthAttemptsPerSocket: number;
  /** Keys not known to the /me cache that one address may have checked at once (default 20)... */
  keyChecksPerAddressBurst: number;
  /** ...and per minute after that burst (default 30). Each such check costs one GET /me. */
  keyChecksPerAddressPerMinute: number;
  /** Presence (awareness) messages per second one socket may send, sustained (default 10)... */
  awarenessPerSecond: number;
  /** ...and in a burst (default 30). Excess messages are dropped; a sustained flood closes the socket. */
  awarenessBurst: number;
  /** One client's presence state, as the JSON it sends (default 8 KiB); a larger one is dropped. */
  maxAwarenessStateBytes: number;
  /**
   * Reads of the team's history and room (GET /sync/history, a search over the whole store, POST
   * /sync/state) one key may make in a burst (default 60: a member going back a year in the Gallery, a
   * month at a time, reads some 25 pages in as many seconds)... A read runs on the server's event loop,
   * so one member's flood would hold every room.
   */
  historyReadsPerKeyBurst: number;
  /** ...and per minute after that burst (default 300). More are answered 429. */
  historyReadsPerKeyPerMinute: number;
  /**
   * Reads of the room (POST /sync/state) one key may have unanswered at once (default 2; more are
   * answered 429): each answer is as large as the room, and one not read stays in the server.
   */
  maxRoomReadsPerKey: number;
  /** How long a reader has to take the room's answer in, ms (default 30000); then its connection is cut. */
  roomReadTimeoutMs: number;
}

/**
 * A message carries one Yjs update, and the largest a well-behaved studio sends is the sync step 2 of
 * edits made while offline (everything the server lacks, in one message): 2 MiB holds a couple of
 * thousand tasks. A room of 10,000 team tasks (the bench) must fit the document limit with room to spare.
 */
/**
 * The transport's bounds:
 * - maxSocketBufferBytes: a sync step 1's answer is the whole room (up to maxDocumentBytes) and is
 *   always let out, one at a time per socket (a second step 1 while it is unsent closes the socket), so
 *   this bound is what may pile up besides it: the room's broadcasts to a reader on a slow link. 8 MiB
 *   holds four of the largest updates (maxMessageBytes) another member can send, so a slow but live
 *   reader of a busy room is not cut off; a socket that reads nothing costs at most one room plus 8 MiB.
 * - maxUnauthenticatedBytes: before its admission a studio sends its token, a sync step 1 (its state
 *   vector: about 7 bytes per Yjs client that ever wrote to the room, so 128 KiB holds some 18,000
 *   sessions' worth) and its presence. Counted on the TCP socket, so a frame being received counts too:
 *   `ws` would otherwise buffer a whole frame (up to twice maxMessageBytes) before anyone sees it.
 * - keyChecksPerAddress*: only a key the /me cache does not know costs a GET /me; after a restart an
 *   office of 50 members behind one NAT gets in within a minute (the provider retries by itself).
 * - awareness*: the studio sends presence when its member opens a board or renames, and every 15 s to
 *   stay present; 10 a second with bursts of 30 is far above that.
 */
export const DEFAULT_LIMITS: Limits = {
  maxMessageBytes: 2 * 1024 * 1024,
  maxDocumentBytes: 32 * 1024 * 1024,
  maxConnectionsPerKey: 20,
  maxConnectionsPerAddress: 50,
  maxSocketBufferBytes: 8 * 1024 * 1024,
  maxUnauthenticatedBytes: 128 * 1024,
  authTimeoutMs: 10_000,
  maxAuthAttemptsPerSocket: 3,
  keyChecksPerAddressBurst: 20,
  keyChecksPerAddressPerMinute: 30,
  awarenessPerSecond: 10,
  awarenessBurst: 30,
  maxAwarenessStateBytes: 8 * 1024,
  historyReadsPerKeyBurst: 60,
  historyReadsPerKeyPerMinute: 300,
  maxRoomReadsPerKey: 2,
  roomReadTimeoutMs: 30_000,
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

/** A token bucket: `capacity` at once, refilled at `perSecond`. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = capacity;
    this.at = now();
  }

  /** Takes one token, or answers false when there is none. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket is full again (nothing of it need be remembered). */
  full(): boolean {
    this.refill();
    return this.tokens >= this.capacity;
  }

  private refill() {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
  }
}

/** A token bucket per name (an address), forgetting full ones when it holds too many. */
export class Buckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly maxNames = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  take(name: string): boolean {
    let bucket = this.buckets.get(name);
    if (!bucket) {
      if (this.buckets.size >= this.maxNames) {
        for (const [n, b] of this.buckets) if (b.full()) this.buckets.delete(n);
        // Still full of names that are all spending: the oldest goes (it starts full again: lenient).
        while (this.buckets.size >= this.maxNames) this.buckets.delete(this.buckets.keys().next().value!);
      }
      bucket = new TokenBucket(this.capacity, this.perSecond, this.now);
      this.buckets.set(name, bucket);
    }
    return bucket.take();
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
