import { t } from '@lingui/core/macro';
import { startTransition, useCallback, useEffect, useReducer, useSyncExternalStore } from 'react';
import type { ApiClient } from '../../api/client';
import type { ApiError } from '../../api/errors';
import type { Me } from '../../../contract/me';
import { nextTask } from '../../lib/next-task';
import { forgetConnection, forgetKey, loadCredentials } from './credentials-store';

// GET /me, the API client and keeping the key once it is accepted are a chunk of their own
// (key-check.ts), fetched as connecting starts: the first screen only reads what is stored.
// In steps: a module is evaluated with everything it imports in one task, and building zod and the
// API's schemas is most of what evaluating the client costs, so zod (with its settings, which must
// come before any schema: zod-config.ts), then the catalog's schemas, then the rest, each in a shorter
// task of its own, as is the start of it (lib/next-task.ts; total blocking time, docs/benchmarks.md).
const loadKeyCheck = () =>
  nextTask()
    .then(() => import('../../zod-config'))
    .then(() => import('../../../contract/catalog'))
    .then(() => import('./key-check'));

/**
 * Why a connection failed, as the connect screen says it: an ApiError, or the studio's own code that
 * could not be loaded (the network went away before the key could be checked).
 */
export type ConnectError = Pick<ApiError, 'status' | 'message' | 'remedy' | 'serverMessage'>;
const notLoaded = (): ConnectError => ({
  status: 0,
  message: t`The studio could not load what it needs to connect.`,
  remedy: t`Check your network connection, then reload the page.`,
});

// The connection as one discriminated union (several steps are one union and a pure reducer).
// Connecting means GET /me answered: only then is the key stored (sessionStorage, or localStorage if
// remembered) and the rest of the studio shown.

export interface Credentials {
  baseUrl: string;
  apiKey: string;
  remember: boolean;
}

export type ConnectionState =
  | { status: 'disconnected'; error?: ConnectError }
  | {
      status: 'connecting';
      credentials: Credentials;
      /** A stored key reconnecting on a page kept hidden meanwhile (public/before-paint.js). */
      hidden?: true;
    }
  | { status: 'connected'; credentials: Credentials; client: ApiClient; connectionId: string; me: Me };

type ConnectionEvent =
  | { type: 'connect'; credentials: Credentials }
  /** The stored key, after the first render: only while nothing else has happened. */
  | { type: 'restore'; credentials: Credentials }
  | { type: 'connected'; client: ApiClient; me: Me; connectionId: string }
  | { type: 'failed'; error: ConnectError }
  | { type: 'disconnect' };

function connectionReducer(state: ConnectionState, event: ConnectionEvent): ConnectionState {
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
        connectionId: event.connectionId,
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

/** The stored key and Base URL, if both are there: what a reload reconnects with. */
function storedCredentials(): Credentials | null {
  const stored = loadCredentials();
  return stored.apiKey && stored.baseUrl
    ? { baseUrl: stored.baseUrl, apiKey: stored.apiKey, remember: stored.remember }
    : null;
}

/**
 * The first state. When public/before-paint.js saw a stored key (`data-reconnecting` on <html>), nothing
 * is hydrated (src/main.tsx) and the first render already reconnects, so the connect screen is never
 * drawn on the way. Otherwise the connect screen as built into index.html (prerendered, then hydrated),
 * which reads no storage.
 */
function firstState(): ConnectionState {
  const reconnecting = globalThis.document?.documentElement.hasAttribute('data-reconnecting');
  const credentials = reconnecting ? storedCredentials() : null;
  return credentials ? { status: 'connecting', credentials, hidden: true } : { status: 'disconnected' };
}

export function useConnection() {
  // The stored key, if the first state did not take it, is applied right after the first render.
  const [state, dispatch] = useReducer(connectionReducer, undefined, firstState);
  const storedBaseUrl = useSyncExternalStore(
    noSubscription,
    () => loadCredentials().baseUrl,
    () => null,
  );
  const pending = state.status === 'connecting' ? state.credentials : null;

  useEffect(() => {
    const credentials = storedCredentials();
    if (credentials) dispatch({ type: 'restore', credentials });
  }, []);

  useEffect(() => {
    if (!pending) return;
    const controller = new AbortController();
    loadKeyCheck().then(
      ({ connectWithKey }) =>
        connectWithKey(pending, controller.signal).then(
          ({ client, me, connectionId }) => {
            // The studio's first render is large: as a transition, React renders it in slices and the
            // page stays responsive (no long task of the whole mount; total blocking time,
            // docs/benchmarks.md).
            startTransition(() => dispatch({ type: 'connected', client, me, connectionId }));
          },
          (error: ApiError) => {
            if (!controller.signal.aborted) dispatch({ type: 'failed', error });
          },
        ),
      () => {
        if (!controller.signal.aborted) dispatch({ type: 'failed', error: notLoaded() });
      },
    );
    return () => controller.abort();
  }, [pending]);

  const connect = useCallback((credentials: Credentials) => dispatch({ type: 'connect', credentials }), []);
  const connectedId = state.status === 'connected' ? state.connectionId : null;
  const disconnect = useCallback(() => {
    if (connectedId) forgetConnection(connectedId);
    else forgetKey();
    dispatch({ type: 'disconnect' });
  }, [connectedId]);

  return { state, connect, disconnect, storedBaseUrl };
}
