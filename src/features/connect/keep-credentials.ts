import { ACCOUNT, API_KEY, BASE_URL, safe } from './credentials-store';

// Keeping the Base URL, the key and its account once the service accepted the key (key-check.ts), as
// credentials-store.ts describes; a chunk of the key check's, not part of the first load.

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
