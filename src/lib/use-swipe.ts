import { useRef, type TouchEvent } from 'react';

/** The least travel that is a swipe, and how much more across than along it must go. */
const MIN_PX = 60;
const SLOPE = 2;

/**
 * A one-finger horizontal swipe: `onSwipe(1)` for a swipe to the left (the next one, as a page turns),
 * `onSwipe(-1)` to the right. A second finger (a pinch) or a mostly vertical move is not a swipe;
 * `enabled()`, asked when the finger lifts, can refuse one (an image zoomed in pans instead).
 */
export function useSwipe(onSwipe: (direction: 1 | -1) => void, enabled: () => boolean = () => true) {
  const start = useRef<{ x: number; y: number } | null>(null);
  return {
    onTouchStart: (e: TouchEvent) => {
      const t = e.touches[0];
      start.current = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY } : null;
    },
    onTouchMove: (e: TouchEvent) => {
      if (e.touches.length > 1) start.current = null;
    },
    onTouchCancel: () => {
      start.current = null;
    },
    onTouchEnd: (e: TouchEvent) => {
      const from = start.current;
      const t = e.changedTouches[0];
      start.current = null;
      if (!from || !t || e.touches.length > 0) return;
      const dx = t.clientX - from.x;
      const dy = t.clientY - from.y;
      if (Math.abs(dx) < MIN_PX || Math.abs(dx) < SLOPE * Math.abs(dy) || !enabled()) return;
      onSwipe(dx < 0 ? 1 : -1);
    },
  };
}
