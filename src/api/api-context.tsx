import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from './client';

// How components reach the API: the app shell provides the client of the current connection; features
// read it here. `connectionId` (a hash of base URL + key) keys every query so caches never mix keys.

export interface ApiConnection {
  client: ApiClient;
  connectionId: string;
  baseUrl: string;
}

const ApiContext = createContext<ApiConnection | null>(null);

export function ApiProvider({ value, children }: { value: ApiConnection | null; children: ReactNode }) {
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

/** The current connection; only call it below a connected part of the app. */
export function useApi(): ApiConnection {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() needs a connected ApiProvider above it');
  return api;
}

export function useOptionalApi(): ApiConnection | null {
  return useContext(ApiContext);
}
