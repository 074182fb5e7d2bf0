import { useCallback, useEffect, useState } from 'react';
import { decodeSetup } from '../model/compare/boards';
import type { BoardSource } from '../features/compare/board-source';

// The compare view lives in the URL beside the selection: ?compare=<board id> reopens a saved board
// after a reload, ?compare=new a new one, and ?compare=shared&setup=<encoded> is a shared setup (no key).

const PARAM = 'compare';
const SETUP = 'setup';

function sourceOf(search: string): BoardSource | null {
  const params = new URLSearchParams(search);
  const value = params.get(PARAM);
  if (value === null) return null;
  if (value === 'shared') {
    const setup = decodeSetup(params.get(SETUP) ?? '');
    return setup ? { kind: 'shared', setup } : { kind: 'new' };
  }
  return value === '' || value === 'new' ? { kind: 'new' } : { kind: 'saved', id: value };
}

export function shareUrlFor(encoded: string): string {
  const url = new URL(window.location.href);
  url.search = new URLSearchParams({ [PARAM]: 'shared', [SETUP]: encoded }).toString();
  url.hash = '';
  return url.href;
}

export function useCompareRoute() {
  const [search, setSearch] = useState(() => window.location.search);
  // A new board's seed (from "Add to comparison") is not in the URL: it is only a starting point.
  const [seed, setSeed] = useState<BoardSource | null>(null);
  useEffect(() => {
    const onPop = () => setSearch(window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const go = useCallback((source: BoardSource | null, { replace = false } = {}) => {
    const params = new URLSearchParams(window.location.search);
    params.delete(SETUP);
    if (source === null) params.delete(PARAM);
    else params.set(PARAM, source.kind === 'saved' ? source.id : source.kind === 'shared' ? 'new' : 'new');
    const next = params.toString() ? `?${params}` : '';
    const url = `${window.location.pathname}${next}${window.location.hash}`;
    if (replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    setSeed(source && source.kind !== 'saved' ? source : null);
    setSearch(next);
  }, []);

  const fromUrl = sourceOf(search);
  const source = fromUrl?.kind === 'new' && seed ? seed : fromUrl;
  return { source, go };
}
