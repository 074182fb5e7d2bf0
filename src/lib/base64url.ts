// URL-safe base64 of UTF-8 text (RFC 4648 section 5, unpadded), for state carried in share links.

export const toBase64Url = (text: string): string =>
  btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(''))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/** Throws on a value that is not base64url of UTF-8 (a link is untrusted input: callers catch). */
export const fromBase64Url = (encoded: string): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(
    Uint8Array.from(atob(encoded.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0)),
  );
