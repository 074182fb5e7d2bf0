import { startTransition, useCallback, useEffect, useReducer, useSyncExternalStore } from 'react';
import { ApiClient } from '../../api/client';
import { connectionId } from '../../api/connection-id';
import { toApiError, type ApiError } from '../../api/errors';
import type { Me } from '../../../contract/me';
import { HistoryStore } from '../../model/history/history-store';
import { forgetKey, loadCredentials, saveCredentials } from './credentials-store';

// The connection as one discriminated union (several steps are one union and a pure reducer).
// Connecting means GET /me answered: only then is the key stored (sessionStorage, or localStorage if
// remembered) and the rest of the studio shown.

export interface Credentials {
  baseUrl: string;
  apiKey: string;
  remember: boolean;
}

export type ConnectionState =
  | { status: 'disconnected'; error?: ApiError }
  | { status: 'connecting'; credentials: Credentials }
  | { status: 'connected'; credentials: Credentials; client: ApiClient; connectionId: string; me: Me };

export type ConnectionEvent =
  | { type: 'connect'; credentials: Credentials }
  /** The stored key, after the first render: only while nothing else has happened. */
  | { type: 'restore'; credentials: Credentials }
  | { type: 'connected'; client: ApiClient; me: Me }
  | { type: 'failed'; error: ApiError }
  | { type: 'disconnect' };

export function connectionReducer(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  switch (event.type) {
    case 'connect':
      return { status: 'connecting', credentials: event.credentials };
    case 'restore':
      return state.status === 'disconnected' && !state.error
        ? { status: 'connecting', credentials: event.credentials }
        : state;
    case 'connected':
      if (state.status !== 'connecting') return state;
      return {
        status: 'connected',
        credentials: state.credentials,
        client: event.client,
        connectionId: connectionId(event.client.baseUrl, state.credentials.apiKey),
        me: event.me,
      };
    case 'failed':
      return state.status === 'connecting' ? { status: 'disconnected', error: event.error } : state;
    case 'disconnect':
      return { status: 'disconnected' };
  }
}

/** The stored Base URL is read when rendering, and only in the browser (none in the prerendered HTML). */
const noSubscription = () => () => {};

export function useConnection() {
  // The first render is the connect screen as built into index.html (prerendered, then hydrated): it
  // reads no storage. The stored key, if any, is applied right after, to reconnect with after a reload.
  const [state, dispatch] = useReducer(connectionReducer, { status: 'disconnected' });
  const storedBaseUrl = useSyncExternalStore(
    noSubscription,
    () => loadCredentials().baseUrl,
    () => null,
  );
  const pending = state.status === 'connecting' ? state.credentials : null;

  useEffect(() => {
    const stored = loadCredentials();
    if (stored.apiKey && stored.baseUrl)
      dispatch({
        type: 'restore',
        credentials: { baseUrl: stored.baseUrl, apiKey: stored.apiKey, remember: stored.remember },
      });
  }, []);

  useEffect(() => {
    if (!pending) return;
    // While the key is checked, the history of this key is read from IndexedDB already.
    const id = connectionId(pending.baseUrl, pending.apiKey);
    HistoryStore.preload(id);
    const controller = new AbortController();
    const client = new ApiClient({ baseUrl: pending.baseUrl, apiKey: pending.apiKey });
    client.me({ signal: controller.signal }).then(
      (me) => {
        saveCredentials({ baseUrl: client.baseUrl, apiKey: pending.apiKey, remember: pending.remember });
        // The studio's first render is large: as a transition, React renders it in slices and the
        // page stays responsive (no long task of the whole mount; issue 17, total blocking time).
        startTransition(() => dispatch({ type: 'connected', client, me }));
      },
      (err: unknown) => {
        HistoryStore.dropPreload(id);
        if (controller.signal.aborted) return;
        const error = toApiError(err);
        // A key the service refuses is not kept; a network failure keeps it for the next try.
        if (error.status === 401 || error.status === 403) forgetKey();
        dispatch({ type: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [pending]);

  const connect = useCallback((credentials: Credentials) => dispatch({ type: 'connect', credentials }), []);
  const disconnect = useCallback(() => {
    forgetKey();
    dispatch({ type: 'disconnect' });
  }, []);

  return { state, connect, disconnect, storedBaseUrl };
}
