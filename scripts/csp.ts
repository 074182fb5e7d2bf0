/**
 * The studio's Content-Security-Policy, for `npm start` and for any static host (docs/deploying.md): scripts only
 * from the studio's own origin, API calls only to the given origins (and the team space's WebSocket
 * origin, the studio's own as ws:), no plugins, no <base>, no framing.
 * Styles allow 'unsafe-inline' for the <style> Radix injects while a dialog locks scrolling.
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
