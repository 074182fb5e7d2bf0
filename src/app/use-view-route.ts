import { useCallback, useMemo } from 'react';
import { NO_GALLERY_FILTER, encodeFilter } from '../model/gallery/gallery-filter';
import { useSearch, writeSearch } from './url-search';

// Views that take the place of the studio and live in the URL: ?view=gallery (with its filters) and
// ?view=usage reopen after a reload. One view at a time: opening one drops a compare board from the URL,
// and leaving the gallery drops its filters.

const PARAM = 'view';
export type StudioView = 'gallery' | 'usage';
const VIEWS: readonly StudioView[] = ['gallery', 'usage'];

const viewOf = (search: string): StudioView | null => {
  const value = new URLSearchParams(search).get(PARAM);
  return VIEWS.find((v) => v === value) ?? null;
};

export function useViewRoute() {
  const search = useSearch();
  const view = useMemo(() => viewOf(search), [search]);

  const go = useCallback((next: StudioView | null, { replace = false } = {}) => {
    const current = window.location.search;
    const params = new URLSearchParams(
      next !== 'gallery' && viewOf(current) === 'gallery'
        ? encodeFilter(NO_GALLERY_FILTER, current)
        : current,
    );
    if (next === null) params.delete(PARAM);
    else {
      params.set(PARAM, next);
      params.delete('compare');
      params.delete('setup');
    }
    writeSearch(params, { replace });
  }, []);

  return { view, go };
}
