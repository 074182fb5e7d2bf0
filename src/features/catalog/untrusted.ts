// Catalog strings and URLs come from the service and, for community templates, from anyone
// (PRODUCT 3: "Every catalog string is untrusted text"). React renders strings as text, so markup
// stays inert; these helpers cover what React does not: bidi spoofing and the schemes of media URLs.

/**
 * U+202A-U+202E (embeddings, overrides and their terminator). An override can make
 * "gpj.exe" read as "exe.jpg"; letters of right-to-left scripts are untouched, and the element's
 * dir="auto" still lays Arabic or Hebrew out right to left.
 */
const BIDI_OVERRIDES = /[\u202A-\u202E]/g;

export const displayText = (text: string): string => text.replace(BIDI_OVERRIDES, '');

/** Only http(s) URLs (absolute, or relative to the page) are put in src attributes. */
export function safeMediaUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, globalThis.location?.href ?? 'http://localhost/');
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A cover whose path ends in .mp4 or .webm is a video (the query string and fragment do not count). */
export function isVideoUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  let path = url;
  try {
    path = new URL(url, 'http://localhost/').pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  return /\.(mp4|webm)$/i.test(path);
}
