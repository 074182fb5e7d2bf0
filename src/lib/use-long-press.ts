import { useEffect, useRef, type MouseEvent, type PointerEvent } from 'react';

/**
 * How long a finger rests before it is a long press: Android's default (ViewConfiguration), 500 ms.
 * @internal
 */
export const LONG_PRESS_MS = 500;
/** A finger that moves further is scrolling, not pressing. */
const SLOP_PX = 10;

/**
 * A long press by touch (a mouse has its right button and modifier keys): `onLongPress` after the finger
 * rests, and the click that follows its lift is swallowed, so the press does not also open what it is on.
 * The system's own long-press menu (the image's "Save image") is kept off the element.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  };
  useEffect(() => cancel, []);
  return {
    onPointerDown: (e: PointerEvent) => {
      fired.current = false;
      if (e.pointerType !== 'touch' || !e.isPrimary) return cancel();
      start.current = { x: e.clientX, y: e.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        fired.current = true;
        onLongPress();
      }, LONG_PRESS_MS);
    },
    onPointerMove: (e: PointerEvent) => {
      const from = start.current;
      if (from && Math.hypot(e.clientX - from.x, e.clientY - from.y) > SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onContextMenu: (e: MouseEvent) => {
      if (timer.current || fired.current) e.preventDefault();
    },
    onClickCapture: (e: MouseEvent) => {
      if (!fired.current) return;
      fired.current = false;
      e.preventDefault();
      e.stopPropagation();
    },
  };
}
