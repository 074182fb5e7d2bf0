import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  NO_GALLERY_FILTER,
  decodeFilter,
  encodeFilter,
  type GalleryFilter,
} from '../features/gallery/gallery-filter';

// The gallery view lives in the URL beside the selection (PRODUCT 3): ?view=gallery, and its filters
// (q, status, media, by, cat, starred, rating, from, to, sort, hidden), so a filtered gallery can be
// bookmarked and reloaded. Never the key: only these names are written.

const VIEW = 'view';

export function useGalleryRoute() {
  const [search, setSearch] = useState(() => window.location.search);
  useEffect(() => {
    const onPop = () => setSearch(window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const open = useMemo(() => new URLSearchParams(search).get(VIEW) === 'gallery', [search]);
  const filter = useMemo(() => decodeFilter(search), [search]);

  const write = (next: string, replace: boolean) => {
    const url = `${window.location.pathname}${next}${window.location.hash}`;
    if (replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    setSearch(next);
  };

  /** Opens or closes the gallery (a history entry: Back returns); closing drops its filters. */
  const setOpen = useCallback((next: boolean) => {
    const params = new URLSearchParams(
      next ? window.location.search : encodeFilter(NO_GALLERY_FILTER, window.location.search),
    );
    if (next) params.set(VIEW, 'gallery');
    else params.delete(VIEW);
    const text = params.toString();
    write(text ? `?${text}` : '', false);
  }, []);

  /** A filter change replaces the URL (typing a search does not fill the Back history). */
  const setFilter = useCallback((next: GalleryFilter) => {
    write(encodeFilter(next, window.location.search), true);
  }, []);

  return { open, filter, setOpen, setFilter };
}
