// Catalog strings, outputs and imported history are untrusted (product-notes §3). React renders strings as
// text, so markup stays inert; these cover what React does not: bidi spoofing and the schemes of URLs
// put in src/href attributes.

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * Removes bidi embeddings, overrides and isolates (an override can make "gpj.exe" read "exe.jpg").
 * Letters of right-to-left scripts are untouched: an element with dir="auto" still lays them out.
 */
export const displayText = (text: string): string => text.replace(BIDI_CONTROLS, '');

/** Only http(s) URLs (absolute, or relative to the page) are put in src and href attributes. */
export function safeMediaUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, globalThis.location?.href ?? 'http://localhost/');
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
