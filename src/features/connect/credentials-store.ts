// Where the studio keeps the Base URL and the key (product-notes §3, Connect): the key lives in this tab's
// sessionStorage unless the user opts in to "Remember this key on this device" (localStorage). The Base
// URL is not a secret and is always remembered. Reads are validated, never trusted.

const BASE_URL = 'media-studio:base-url';
const API_KEY = 'media-studio:api-key';

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

/** Disconnect: the key is forgotten everywhere; the Base URL stays for next time. */
export function forgetKey() {
  safe(() => localStorage.removeItem(API_KEY), undefined);
  safe(() => sessionStorage.removeItem(API_KEY), undefined);
}
