// Reading Hocuspocus's messages as they arrive, before Hocuspocus does (its MessageType and y-protocols'
// sync framing): lib0 variable-length integers and byte arrays. The rules (limits, authority, the
// write-ahead log) need to know what a message is and, for a sync message, the Yjs update it carries.

/** Hocuspocus's message types (its types.ts) that this server reads. */
export const MESSAGE_TYPE = { sync: 0, awareness: 1, auth: 2, syncReply: 4 } as const;

/** y-protocols' sync sub-types: step 1 asks for what it lacks, step 2 and update carry a Yjs update. */
export const SYNC = { step1: 0, step2: 1, update: 2 } as const;

/** Reads a lib0 varuint at `pos`; undefined past the end or beyond 2^53. */
export function readVarUint(bytes: Uint8Array, pos: number): { value: number; next: number } | undefined {
  let value = 0;
  let mult = 1;
  for (let i = pos; i < bytes.length && i < pos + 8; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * mult;
    if (b < 0x80) return { value, next: i + 1 };
    mult *= 128;
  }
  return undefined;
}

/** A lib0 var-length byte array at `pos` (a view, not a copy); undefined when it runs past the end. */
function readVarBytes(bytes: Uint8Array, pos: number): { value: Uint8Array; next: number } | undefined {
  const length = readVarUint(bytes, pos);
  if (!length || length.next + length.value > bytes.length) return undefined;
  return { value: bytes.subarray(length.next, length.next + length.value), next: length.next + length.value };
}

/** A message's document name (as sent), its type, and where its payload starts; undefined if unreadable. */
export function routeOf(
  bytes: Uint8Array,
): { name: string; nameEnd: number; type: number; next: number } | undefined {
  const length = readVarUint(bytes, 0);
  if (!length || length.next + length.value > bytes.length) return undefined;
  const nameEnd = length.next + length.value;
  const type = readVarUint(bytes, nameEnd);
  if (!type) return undefined;
  const name = new TextDecoder().decode(bytes.subarray(length.next, nameEnd));
  return { name, nameEnd, type: type.value, next: type.next };
}

/** Whether a message is a sync message of this sub-type (SYNC.step1 asks for the room, step2 answers). */
export function isSync(bytes: Uint8Array, step: number): boolean {
  const route = routeOf(bytes);
  if (!route || (route.type !== MESSAGE_TYPE.sync && route.type !== MESSAGE_TYPE.syncReply)) return false;
  return readVarUint(bytes, route.next)?.value === step;
}

/** The message's type after its document name; undefined when the message cannot be read that far. */
export function messageTypeOf(message: Uint8Array): number | undefined {
  return routeOf(message)?.type;
}

/**
 * Whether a raw Hocuspocus message (document name, then type) may change the document. A message that
 * cannot be read is treated as one that may: Hocuspocus refuses it itself when it fails to decode.
 */
export function carriesUpdate(message: Uint8Array): boolean {
  const type = messageTypeOf(message);
  return type === undefined || type === MESSAGE_TYPE.sync || type === MESSAGE_TYPE.syncReply;
}

/**
 * The Yjs update a sync message carries (a step 2 or an update), as a view into the message; null when
 * the message carries none (another type, a step 1); 'unreadable' when it claims to and cannot be read.
 */
export function updateOf(message: Uint8Array): Uint8Array | null | 'unreadable' {
  const name = readVarUint(message, 0);
  if (!name) return 'unreadable';
  const type = readVarUint(message, name.next + name.value);
  if (!type) return 'unreadable';
  if (type.value !== MESSAGE_TYPE.sync && type.value !== MESSAGE_TYPE.syncReply) return null;
  const sub = readVarUint(message, type.next);
  if (!sub) return 'unreadable';
  if (sub.value !== SYNC.step2 && sub.value !== SYNC.update) return null;
  return readVarBytes(message, sub.next)?.value ?? 'unreadable';
}

// ---- writing: the same framing, for the server's own messages and for raw clients (tests, the bench) ----

/** A lib0 varuint. */
export function varUint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A lib0 var-length byte array. */
export const varBytes = (bytes: Uint8Array): number[] => [...varUint(bytes.length), ...bytes];

/** A lib0 var-length UTF-8 string. */
export const varString = (text: string): number[] => varBytes(new TextEncoder().encode(text));

/** A Hocuspocus message: the document's name, the message type, then its payload. */
export const frame = (documentName: string, type: number, payload: readonly number[]): Uint8Array =>
  Uint8Array.from([...varString(documentName), ...varUint(type), ...payload]);

/** The Auth message (token sub-type 0) a provider sends first. */
export const authFrame = (documentName: string, token: string): Uint8Array =>
  frame(documentName, MESSAGE_TYPE.auth, [...varUint(0), ...varString(token)]);

/** Sync step 1 with this state vector (an empty one: "send me the whole room"). */
export const syncStep1Frame = (documentName: string, stateVector: Uint8Array): Uint8Array =>
  frame(documentName, MESSAGE_TYPE.sync, [...varUint(SYNC.step1), ...varBytes(stateVector)]);

/** A sync update (sub-type 2) carrying one Yjs update. */
export const syncUpdateFrame = (documentName: string, update: Uint8Array): Uint8Array =>
  frame(documentName, MESSAGE_TYPE.sync, [...varUint(SYNC.update), ...varBytes(update)]);
