import { useSyncExternalStore } from 'react';

/** The phone layout's width: below Tailwind's `sm` (40rem, 640 px), as the `max-sm:` classes. */
const PHONE_QUERY = '(max-width: 639.98px)';

/** Whether a media query matches now, following its changes; false where there is no window (prerender). */
function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The phone layout (docs/phone.md): three destinations in a bar at the bottom, the catalog as a sheet. */
export const usePhone = () => useMediaQuery(PHONE_QUERY);
