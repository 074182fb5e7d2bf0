import { normaliseBaseUrl } from './base-url';

// An opaque id for "this base URL + this key", used in query keys and per-key storage so switching
// keys separates caches (product-notes §3) without the key ever appearing in a query key, a URL or devtools.
// FNV-1a 64-bit: synchronous (crypto.subtle is async), short, and one-way in practice.

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * FNV-1a 64-bit over the UTF-8 bytes of text, as 16 hex digits.
 * @internal
 */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}

export type ConnectionId = string;

/** The same id for `https://host/v1` and `https://host/v1/`; different for every key. */
export const connectionId = (baseUrl: string, apiKey: string): ConnectionId =>
  fnv1a64(`${normaliseBaseUrl(baseUrl)}\n${apiKey}`);
