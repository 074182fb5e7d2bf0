// The zod settings first: this module is the first of the API's schemas to load, so the settings
// (no eval, which the Content-Security-Policy forbids) hold for every schema after it.
import '../../zod-config';
import { ApiClient } from '../../api/client';
import { connectionId as connectionIdOf } from '../../api/connection-id';
import { toApiError, type ApiError } from '../../api/errors';
import { MeSchema, type Me } from '../../../contract/me';
import { HistoryStore } from '../../model/history/history-store';
import { forgetConnection } from './credentials-store';
import { loadAccount, saveAccount, saveCredentials } from './keep-credentials';

// Checking a key: GET /me with a new client, and meanwhile the key's history read from IndexedDB; then
// keeping the key as asked. A chunk of its own, loaded as connecting starts: the API client, its errors
// and the API's schemas are not evaluated on the first screen, which is only the connect form (total
// blocking time, docs/benchmarks.md "lighthouse"), nor part of its first load ("bundle").

/**
 * Connecting (use-connection.ts): the key checked (checkKey), then kept (sessionStorage, or localStorage
 * if remembered) with the account it opened, only once the service accepted it. A key the service
 * refuses is forgotten; a network failure keeps it for the next try. Resolves with the connection's id,
 * which names its history and its caches; rejects with the ApiError.
 */
export async function connectWithKey(
  credentials: { baseUrl: string; apiKey: string; remember: boolean },
  signal: AbortSignal,
): Promise<{ client: ApiClient; me: Me; connectionId: string }> {
  const id = connectionIdOf(credentials.baseUrl, credentials.apiKey);
  const { client, me } = await checkKey(credentials, id, signal, loadAccount(id)).catch((error: ApiError) => {
    if (!signal.aborted && (error.status === 401 || error.status === 403)) forgetConnection(id);
    throw error;
  });
  const { apiKey, remember } = credentials;
  saveCredentials({ baseUrl: client.baseUrl, apiKey, remember });
  const connectionId = connectionIdOf(client.baseUrl, apiKey);
  saveAccount(connectionId, me, remember);
  return { client, me, connectionId };
}

/** The client and the account, or the ApiError that refused the key; `connectionId` names its history. */
export async function checkKey(
  credentials: { baseUrl: string; apiKey: string },
  connectionId: string,
  signal: AbortSignal,
  /** The account last seen for this key (stored beside it): offline, the studio opens with it. */
  lastAccount: unknown = null,
): Promise<{ client: ApiClient; me: Me }> {
  // While the key is checked, the history of this key is read from IndexedDB already.
  HistoryStore.preload(connectionId);
  const client = new ApiClient({ baseUrl: credentials.baseUrl, apiKey: credentials.apiKey });
  const last = MeSchema.safeParse(lastAccount);
  // Without a network the check cannot answer (and its retries would hold the screen for seconds): a key
  // that connected before opens its studio offline, its history and gallery read from this device.
  if (last.success && typeof navigator !== 'undefined' && navigator.onLine === false)
    return { client, me: last.data };
  try {
    return { client, me: await client.me({ signal }) };
  } catch (err) {
    const error = toApiError(err);
    // No answer at all, or a service that answers but cannot serve now (its rate limit after every
    // retry, a 5xx): the key was not refused, so a key that connected before opens its studio as when
    // offline, and the account is read again once the service answers (useMe). Left on the connect
    // screen instead, a reload during a rate-limit storm would wait for a click that never comes.
    const transient =
      (error.status === 0 && error.code === 'network_error') || error.status === 429 || error.status >= 500;
    if (last.success && transient) return { client, me: last.data };
    HistoryStore.dropPreload(connectionId);
    throw error;
  }
}
