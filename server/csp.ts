/**
 * The studio's Content-Security-Policy, for `npm start` and for any static host (docs/deploying.md): scripts only
 * from the studio's own origin and the one inline script of index.html, by its hash (`withScriptSources`), API calls only to the given origins (and the team space's WebSocket
 * origin, the studio's own as ws:), no plugins, no <base>, no framing.
 * Styles allow 'unsafe-inline' for the <style> Radix injects while a dialog locks scrolling (and so the
 * critical CSS index.html holds inline): a hash in style-src would make browsers ignore 'unsafe-inline'.
 */
export function contentSecurityPolicy(
  apiOrigins: readonly string[],
  webSocketOrigins: readonly string[] = [],
): string {
  const api = [...new Set(apiOrigins)].join(' ');
  const connect = [...new Set([...apiOrigins, ...webSocketOrigins])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${api} https:`,
    `media-src 'self' data: blob: ${api} https:`,
    `connect-src 'self' ${connect}`,
    "font-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The policy with more sources in script-src: the hashes of index.html's inline scripts, computed at
 * build (scripts/first-paint.ts writes them to dist/csp-hashes.json). Only hashes: never 'unsafe-inline'.
 */
export function withScriptSources(policy: string, sources: readonly string[]): string {
  for (const source of sources)
    if (!/^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/.test(source))
      throw new Error(`Not a script hash for the CSP: ${source}`);
  if (sources.length === 0) return policy;
  return policy
    .split('; ')
    .map((directive) =>
      directive.startsWith('script-src ') ? `${directive} ${sources.join(' ')}` : directive,
    )
    .join('; ');
}

/** The file beside the built index.html that names its inline scripts' hashes (scripts/first-paint.ts). */
export const CSP_HASHES = 'csp-hashes.json';

/** What dist/csp-hashes.json holds: the script-src sources of index.html's inline scripts. */
export interface CspHashes {
  scriptSrc: string[];
}
