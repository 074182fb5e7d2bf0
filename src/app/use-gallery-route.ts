import { useCallback, useMemo } from 'react';
import { decodeFilter, encodeFilter, type GalleryFilter } from '../model/gallery/gallery-filter';
import { useSearch, writeSearch } from './url-search';

// The gallery's filters live in the URL beside ?view=gallery (use-view-route.ts): q, status, media, by,
// cat, starred, rating, from, to, sort, hidden, so a filtered gallery can be bookmarked and reloaded.
// Never the key: only these names are written.

export function useGalleryFilter() {
  const search = useSearch();
  const filter = useMemo(() => decodeFilter(search), [search]);

  /** A filter change replaces the URL (typing a search does not fill the Back history). */
  const setFilter = useCallback((next: GalleryFilter) => {
    writeSearch(new URLSearchParams(encodeFilter(next, window.location.search)), { replace: true });
  }, []);

  return { filter, setFilter };
}
