// Where the studio keeps the Base URL and the key (product-notes §3, Connect): the key lives in this tab's
// sessionStorage unless the user opts in to "Remember this key on this device" (localStorage). The Base
// URL is not a secret and is always remembered. Reads are validated, never trusted.

const BASE_URL = 'media-studio:base-url';
const API_KEY = 'media-studio:api-key';
/** The account GET /me last answered for the stored key: the studio opens with it when offline. */
const ACCOUNT = 'media-studio:account';

export interface StoredCredentials {
  baseUrl: string | null;
  apiKey: string | null;
  remember: boolean;
}

function safe<T>(fn: () => T, fallback: T): T {
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

export function saveCredentials({
  baseUrl,
  apiKey,
  remember,
}: {
  baseUrl: string;
  apiKey: string;
  remember: boolean;
}) {
  safe(() => localStorage.setItem(BASE_URL, baseUrl), undefined);
  if (remember) {
    safe(() => localStorage.setItem(API_KEY, apiKey), undefined);
    safe(() => sessionStorage.removeItem(API_KEY), undefined);
  } else {
    safe(() => localStorage.removeItem(API_KEY), undefined);
    safe(() => sessionStorage.setItem(API_KEY, apiKey), undefined);
  }
}

/**
 * The account (GET /me: the key's label, prefix, balance and limits, never the key itself) beside the key
 * and in the same storage, so a reload without a network opens the studio, its history and gallery (docs/offline.md).
 * Kept with the connection it belongs to; read back unparsed (key-check.ts parses it with the API's schema).
 */
export function saveAccount(connectionId: string, me: unknown, remember: boolean) {
  const value = JSON.stringify({ connectionId, me });
  const [kept, other] = remember ? [localStorage, sessionStorage] : [sessionStorage, localStorage];
  safe(() => kept.setItem(ACCOUNT, value), undefined);
  safe(() => other.removeItem(ACCOUNT), undefined);
}

export function loadAccount(connectionId: string): unknown {
  for (const storage of [() => localStorage, () => sessionStorage]) {
    const raw = safe(() => storage().getItem(ACCOUNT), null);
    if (!raw) continue;
    const stored = safe(() => JSON.parse(raw) as unknown, null);
    if (
      stored &&
      typeof stored === 'object' &&
      'connectionId' in stored &&
      stored.connectionId === connectionId
    )
      return 'me' in stored ? stored.me : null;
  }
  return null;
}

/** Disconnect: the key is forgotten everywhere; the Base URL stays for next time. */
export function forgetKey() {
  safe(() => localStorage.removeItem(ACCOUNT), undefined);
  safe(() => sessionStorage.removeItem(ACCOUNT), undefined);
  safe(() => localStorage.removeItem(API_KEY), undefined);
  safe(() => sessionStorage.removeItem(API_KEY), undefined);
}
