import { useSyncExternalStore } from 'react';

// The reading direction, as drawn on <html> (public/before-paint.js first, then i18n.ts on every change
// of language). Read from the document rather than the language: the document is what the browser lays
// out, so arrows and sliders that follow it agree with what is on screen.

export type Direction = 'ltr' | 'rtl';

/** The document's direction now: right to left only when <html dir="rtl">. */
export function documentDirection(): Direction {
  return globalThis.document?.documentElement.dir === 'rtl' ? 'rtl' : 'ltr';
}

function subscribe(listener: () => void): () => void {
  const root = globalThis.document?.documentElement;
  if (!root || typeof MutationObserver === 'undefined') return () => undefined;
  const observer = new MutationObserver(listener);
  observer.observe(root, { attributes: true, attributeFilter: ['dir'] });
  return () => observer.disconnect();
}

/** The document's direction, following every change of <html dir>. */
export const useDirection = (): Direction =>
  useSyncExternalStore(subscribe, documentDirection, () => 'ltr' as const);
