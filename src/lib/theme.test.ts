import { afterEach, describe, expect, it } from 'vitest';
import { readBeforePaint } from '../../scripts/before-paint';
import { applyTheme, readTheme, setTheme, THEME_KEY } from './theme';

afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});

/** public/before-paint.js as the page runs it: a classic script, before the first paint. */
const runBootScript = () => new Function(readBeforePaint())() as void;

describe('theme', () => {
  it('is System until one is chosen, and System for anything stored that is not a theme', () => {
    expect(readTheme()).toBe('system');
    localStorage.setItem(THEME_KEY, 'purple');
    expect(readTheme()).toBe('system');
  });

  it('remembers Dark and Light and draws them on <html>; System forgets and draws none', () => {
    setTheme('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(readTheme()).toBe('dark');
    setTheme('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    setTheme('system');
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('the boot script draws the remembered theme before the app runs, as the app would', () => {
    for (const theme of ['dark', 'light'] as const) {
      localStorage.setItem(THEME_KEY, theme);
      document.documentElement.removeAttribute('data-theme');
      runBootScript();
      const drawn = document.documentElement.getAttribute('data-theme');
      applyTheme(theme);
      expect(drawn).toBe(document.documentElement.getAttribute('data-theme'));
    }
    localStorage.setItem(THEME_KEY, 'purple');
    document.documentElement.removeAttribute('data-theme');
    runBootScript();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });
});
