// Where the studio keeps the Base URL and the key (product-notes §3, Connect): the key lives in this tab's
// sessionStorage unless the user opts in to "Remember this key on this device" (localStorage). The Base
// URL is not a secret and is always remembered. Reads are validated, never trusted.
// Here what the first screen needs (reading them, forgetting them); writing them, once the service
// accepted a key, is keep-credentials.ts, which loads with the key check (not part of the first load).

export const BASE_URL = 'media-studio:base-url';
export const API_KEY = 'media-studio:api-key';
/** The account GET /me last answered for the stored key: the studio opens with it when offline. */
export const ACCOUNT = 'media-studio:account';

export interface StoredCredentials {
  baseUrl: string | null;
  apiKey: string | null;
  remember: boolean;
}

export function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // storage can be disabled (private mode, policies): the studio still works in memory
  }
}

const isKeyLike = (v: string | null): v is string => !!v && v.length <= 512 && !/\s/.test(v);

export function loadCredentials(): StoredCredentials {
  const baseUrl = safe(() => localStorage.getItem(BASE_URL), null);
  const remembered = safe(() => localStorage.getItem(API_KEY), null);
  const session = safe(() => sessionStorage.getItem(API_KEY), null);
  const apiKey = isKeyLike(remembered) ? remembered : isKeyLike(session) ? session : null;
  return {
    baseUrl: baseUrl && /^https?:\/\//.test(baseUrl) ? baseUrl : null,
    apiKey,
    remember: isKeyLike(remembered),
  };
}

/** Disconnect: the key is forgotten everywhere; the Base URL stays for next time. */
export function forgetKey() {
  safe(() => localStorage.removeItem(ACCOUNT), undefined);
  safe(() => sessionStorage.removeItem(ACCOUNT), undefined);
  safe(() => localStorage.removeItem(API_KEY), undefined);
  safe(() => sessionStorage.removeItem(API_KEY), undefined);
}

/**
 * The key is forgotten, and with it the catalog kept on this device for it (docs/offline.md). The
 * catalog's store loads with the studio's chunk, not with the connect screen.
 */
export function forgetConnection(connectionId: string) {
  forgetKey();
  void import('../../model/catalog/catalog-keep')
    .then((m) => m.forgetCatalog(connectionId))
    .catch(() => undefined);
}
