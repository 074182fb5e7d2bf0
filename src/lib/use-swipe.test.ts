import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSwipe } from './use-swipe';

type Point = [number, number];
const touches = (points: Point[]) => points.map(([clientX, clientY]) => ({ clientX, clientY }));
const ev = (now: Point[], changed: Point[] = []) =>
  ({ touches: touches(now), changedTouches: touches(changed) }) as unknown as React.TouchEvent;

/** One finger from `from` to `to`. */
function drag(handlers: ReturnType<typeof useSwipe>, from: Point, to: Point) {
  handlers.onTouchStart(ev([from]));
  handlers.onTouchMove(ev([to]));
  handlers.onTouchEnd(ev([], [to]));
}

describe('useSwipe', () => {
  it('a swipe to the left is the next one, to the right the previous', () => {
    const onSwipe = vi.fn();
    const { result } = renderHook(() => useSwipe(onSwipe));
    drag(result.current, [300, 400], [100, 410]);
    drag(result.current, [100, 400], [300, 390]);
    expect(onSwipe.mock.calls).toEqual([[1], [-1]]);
  });

  it('is no swipe when short, mostly vertical, two-fingered, or refused', () => {
    const onSwipe = vi.fn();
    let enabled = true;
    const { result } = renderHook(() => useSwipe(onSwipe, () => enabled));
    drag(result.current, [300, 400], [260, 400]);
    drag(result.current, [300, 400], [200, 600]);
    result.current.onTouchStart(ev([[300, 400]]));
    result.current.onTouchMove(
      ev([
        [300, 400],
        [100, 400],
      ]),
    );
    result.current.onTouchEnd(ev([], [[100, 400]]));
    enabled = false;
    drag(result.current, [300, 400], [100, 400]);
    expect(onSwipe).not.toHaveBeenCalled();
  });
});
