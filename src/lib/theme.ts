import { Listeners } from './store';
import { useSyncExternalStore } from 'react';

// The studio's colour theme: the system's, or light or dark whatever the system says. The choice is kept
// in localStorage and drawn as `data-theme` on <html> (none for System: the CSS then follows
// prefers-color-scheme, JavaScript or not). public/before-paint.js, a blocking script in <head>, sets the same
// attribute from the same key before the first paint; this module keeps it up to date afterwards.
// src/index.css defines Tailwind's `dark:` variant over it.

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
/**
 * The localStorage key: public/before-paint.js reads the same one.
 * @internal
 */
export const THEME_KEY = 'media-studio:theme';

const isTheme = (value: unknown): value is Theme => THEMES.includes(value as Theme);

/** @internal */
export function readTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY);
    return isTheme(stored) ? stored : 'system';
  } catch {
    // Storage refused (a privacy mode): the system's theme.
    return 'system';
  }
}

/**
 * Draws `theme` on the document: the attribute the CSS reads, none for System.
 * @internal
 */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

const listeners = new Listeners();

export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') globalThis.localStorage?.removeItem(THEME_KEY);
    else globalThis.localStorage?.setItem(THEME_KEY, theme);
  } catch {
    // Not remembered, still applied for this page.
  }
  applyTheme(theme);
  current = theme;
  listeners.notify();
}

let current: Theme | null = null;
const snapshot = (): Theme => (current ??= readTheme());
// Another tab chose a theme: this one follows.
const subscribe = (listener: () => void) => {
  const unsubscribe = listeners.subscribe(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== THEME_KEY && e.key !== null) return;
    current = readTheme();
    applyTheme(current);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
};

/** The theme chosen; the server's render (the prerendered connect screen) reads System. */
export const useTheme = (): Theme => useSyncExternalStore(subscribe, snapshot, () => 'system');
