import { useCallback, useEffect, useMemo, useState } from 'react';
import { searchForSelection, selectionFromSearch, type Selection } from '../model/selection';

/** The selection lives in the URL (product-notes §3): links and reloads reopen it; back/forward move through it. */
export function useUrlSelection() {
  const [search, setSearch] = useState(() => window.location.search);
  useEffect(() => {
    const onPop = () => setSearch(window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const selection = useMemo(() => selectionFromSearch(search), [search]);
  const select = useCallback((next: Selection | null, { replace = false }: { replace?: boolean } = {}) => {
    const nextSearch = searchForSelection(next, window.location.search);
    const url = `${window.location.pathname}${nextSearch}${window.location.hash}`;
    if (replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    setSearch(nextSearch);
  }, []);
  return [selection, select] as const;
}
