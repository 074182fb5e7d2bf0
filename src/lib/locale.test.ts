import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLocale, canonicalLocale, getLocale, setLocale, subscribeLocale } from './locale';
import { useLocale } from './use-locale';

const initial = getLocale();
afterEach(() => setLocale(initial));

describe('the studio locale', () => {
  it("starts as the browser's first language (happy-dom says en-US)", () => {
    expect(initial).toBe('en-US');
  });

  it('takes the first valid tag of the browser languages, in canonical spelling, else English', () => {
    expect(browserLocale(['ar-eg', 'fr'])).toBe('ar-EG');
    expect(browserLocale(['not a tag!', 'pt-br'])).toBe('pt-BR');
    expect(browserLocale([])).toBe('en');
    expect(browserLocale(['not a tag!'])).toBe('en');
  });

  it('refuses a tag that is not BCP 47 and keeps the locale', () => {
    expect(canonicalLocale('zh-hans-cn')).toBe('zh-Hans-CN');
    expect(canonicalLocale('en_US')).toBeNull();
    expect(() => setLocale('en_US')).toThrow(RangeError);
    expect(getLocale()).toBe(initial);
  });

  it('tells its listeners on a change, once, and not after they unsubscribe', () => {
    const listener = vi.fn();
    const stop = subscribeLocale(listener);
    setLocale('de');
    setLocale('de-DE');
    setLocale('de-de');
    expect(listener).toHaveBeenCalledTimes(2);
    expect(getLocale()).toBe('de-DE');
    stop();
    setLocale('ja');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('re-renders a component that reads it when it changes', () => {
    const { result } = renderHook(() => useLocale());
    expect(result.current).toBe('en-US');
    act(() => setLocale('ar'));
    expect(result.current).toBe('ar');
  });
});
