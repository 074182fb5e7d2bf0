import { useCallback, useEffect, useState } from 'react';

// Views beside the studio that live in the URL: ?view=usage reopens Usage after a reload. Opening one
// drops a compare board from the URL (one view at a time); closing it returns to the studio.

const PARAM = 'view';
export type StudioView = 'usage';
const VIEWS: readonly StudioView[] = ['usage'];

const viewOf = (search: string): StudioView | null => {
  const value = new URLSearchParams(search).get(PARAM);
  return VIEWS.find((v) => v === value) ?? null;
};

export function useViewRoute() {
  const [search, setSearch] = useState(() => window.location.search);
  useEffect(() => {
    const onPop = () => setSearch(window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const go = useCallback((view: StudioView | null, { replace = false } = {}) => {
    const params = new URLSearchParams(window.location.search);
    if (view === null) params.delete(PARAM);
    else {
      params.set(PARAM, view);
      params.delete('compare');
      params.delete('setup');
    }
    const next = params.toString() ? `?${params}` : '';
    const url = `${window.location.pathname}${next}${window.location.hash}`;
    if (replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    setSearch(next);
  }, []);

  return { view: viewOf(search), go };
}
