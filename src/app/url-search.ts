import { useSyncExternalStore } from 'react';
import { Listeners } from '../lib/store';

// The query string as one store, for the views that live in it (?view=, the gallery's filters): a
// change written by one hook is seen by every other at once, and Back/Forward (popstate) by all of them.

const listeners = new Listeners();

function subscribe(listener: () => void): () => void {
  const off = listeners.subscribe(listener);
  window.addEventListener('popstate', listener);
  return () => {
    off();
    window.removeEventListener('popstate', listener);
  };
}

const getSearch = () => window.location.search;

export function useSearch(): string {
  return useSyncExternalStore(subscribe, getSearch);
}

/** Writes the query string (a history entry unless `replace`), keeping the path and the hash. */
export function writeSearch(params: URLSearchParams, { replace = false } = {}): void {
  const text = params.toString();
  const url = `${window.location.pathname}${text ? `?${text}` : ''}${window.location.hash}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.notify();
}
