import { useCallback, useRef, type RefObject } from 'react';

/** One scroll moves every image box (`[data-zoom-box]`) inside `grid` to the same relative place. */
export function useSyncedScroll(grid: RefObject<HTMLElement | null>): (source: HTMLElement) => void {
  const syncing = useRef(false);
  return useCallback(
    (source: HTMLElement) => {
      if (syncing.current || !grid.current) return;
      syncing.current = true;
      const fx = source.scrollLeft / Math.max(1, source.scrollWidth - source.clientWidth);
      const fy = source.scrollTop / Math.max(1, source.scrollHeight - source.clientHeight);
      grid.current.querySelectorAll<HTMLElement>('[data-zoom-box]').forEach((box) => {
        if (box === source) return;
        box.scrollLeft = fx * (box.scrollWidth - box.clientWidth);
        box.scrollTop = fy * (box.scrollHeight - box.clientHeight);
      });
      requestAnimationFrame(() => {
        syncing.current = false;
      });
    },
    [grid],
  );
}
