import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS, useLongPress } from './use-long-press';

// Handlers called with the parts of the events they read.
const pointer = (pointerType: string, x = 10, y = 10) =>
  ({ pointerType, isPrimary: true, clientX: x, clientY: y }) as unknown as React.PointerEvent;
const click = () => {
  const e = { preventDefault: vi.fn(), stopPropagation: vi.fn() };
  return e as unknown as React.MouseEvent & typeof e;
};

describe('useLongPress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires after a finger rests, and swallows the click of its lift', () => {
    const onLongPress = vi.fn();
    const { result } = renderHook(() => useLongPress(onLongPress));
    act(() => result.current.onPointerDown(pointer('touch')));
    act(() => void vi.advanceTimersByTime(LONG_PRESS_MS - 1));
    expect(onLongPress).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(onLongPress).toHaveBeenCalledTimes(1);
    result.current.onPointerUp();
    const lift = click();
    result.current.onClickCapture(lift);
    expect(lift.preventDefault).toHaveBeenCalled();
    // The next click is a click again.
    const next = click();
    result.current.onClickCapture(next);
    expect(next.preventDefault).not.toHaveBeenCalled();
  });

  it('is no long press when the finger lifts early, moves away, or is a mouse', () => {
    const onLongPress = vi.fn();
    const { result } = renderHook(() => useLongPress(onLongPress));
    result.current.onPointerDown(pointer('touch'));
    result.current.onPointerUp();
    result.current.onPointerDown(pointer('touch'));
    result.current.onPointerMove(pointer('touch', 30, 10));
    result.current.onPointerDown(pointer('mouse'));
    vi.advanceTimersByTime(LONG_PRESS_MS * 2);
    expect(onLongPress).not.toHaveBeenCalled();
    const tap = click();
    result.current.onClickCapture(tap);
    expect(tap.preventDefault).not.toHaveBeenCalled();
  });
});
