// Outputs, params and meta come from the service or from an imported file: untrusted. React renders
// strings as text, so markup stays inert; these cover what React does not: bidi spoofing, the schemes
// put in src/href attributes, and very long strings used as alt text.

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Removes bidi embeddings, overrides and isolates (an override can make "gpj.exe" read "exe.jpg"). */
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

/** At most `max` characters (by code point), with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
