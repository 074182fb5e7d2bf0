// docs/deploying.md: the studio's Content-Security-Policy lets it call only some API origins (its
// connect-src), which /config.json lists as apiOrigins. A Base URL outside them would fail as "could not be
// reached" with the reason only in the console, so the connect form says so before, with the remedy.

const originOf = (url: string): string | undefined => {
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The Base URL's origin when the CSP would block calls to it: not the studio's own origin and not one
 * of `apiOrigins`. Undefined when it is allowed, when the URL is not one yet, or when the deployment
 * did not say which origins it allows.
 */
export function blockedOrigin(
  baseUrl: string,
  apiOrigins: readonly string[] | undefined,
  selfOrigin: string,
): string | undefined {
  if (!apiOrigins) return undefined;
  const origin = originOf(baseUrl.trim());
  if (!origin || origin === selfOrigin) return undefined;
  const allowed = new Set(apiOrigins.map(originOf).filter(Boolean));
  return allowed.has(origin) ? undefined : origin;
}
