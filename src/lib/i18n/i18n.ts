import { i18n, type Messages } from '@lingui/core';
import { useSyncExternalStore } from 'react';
import { setLocale } from '../locale';
import { SOURCE_LANGUAGE } from './language-table';
import { directionOf, intlLocaleOf, isLanguage, type Language } from './languages';

// The studio's language at run time (docs/i18n.md), through Lingui's one `i18n` instance.
//
// English is in the code (scripts/i18n/vite-lingui.ts compiles it at build time), so it loads nothing.
// Another language loads its catalog, a chunk of its own, when it is chosen: a catalog is compiled
// from src/locales/<tag>.po by @lingui/vite-plugin, with English for any message it lacks.
//
// The starting language is the one public/before-paint.js drew on <html> before the first paint
// (chosen on this device, else the browser's); a choice is remembered here under the same key.

/**
 * The localStorage key: public/before-paint.js reads the same one.
 * @internal
 */
export const LANGUAGE_KEY = 'media-studio:language';

// Each language's catalog, a lazy chunk of its own, by file name: src/locales/<tag>.po for every tag
// of the table (./language-table.ts) and the pseudo-locale, written by `npm run i18n:extract`. English,
// the language of the code, has none.
// eslint-disable-next-line lingui/no-unlocalized-strings -- file patterns, not words
const catalogs = import.meta.glob<{ messages: Messages }>(['./*.po', '!./en.po'], { base: '../../locales' });

/** The language drawn on <html> before the first paint, or English. */
export function startingLanguage(root: HTMLElement = document.documentElement): Language {
  return isLanguage(root.lang) ? root.lang : 'en';
}

// No document when the connect screen is prerendered at build time (src/prerender.tsx).
const documentRoot = (): HTMLElement | undefined => globalThis.document?.documentElement;

function apply(language: Language, messages: Messages, root: HTMLElement | undefined) {
  i18n.loadAndActivate({ locale: language, locales: intlLocaleOf(language), messages });
  // Numbers, dates and lists in the same language (lib/format.ts).
  setLocale(intlLocaleOf(language));
  if (!root) return;
  root.lang = language;
  root.dir = directionOf(language);
  root.removeAttribute('data-language-pending');
}

/** English, at once: it needs no catalog (the studio's first render in English waits for nothing). */
export function activateEnglish(root = documentRoot()): void {
  apply('en', {}, root);
}

/** Loads `language`'s messages and makes it the studio's: <html lang dir>, and every message. */
export async function activateLanguage(language: Language, root = documentRoot()) {
  if (language === SOURCE_LANGUAGE) return activateEnglish(root);
  const load = catalogs[`./${language}.po`];
  // For developers: a language added to the table before its catalog was extracted.
  if (!load) throw new Error(`No src/locales/${language}.po: npm run i18n:extract`);
  apply(language, (await load()).messages, root);
}

/** The person's choice: made the studio's language, and remembered on this device. */
export async function chooseLanguage(language: Language): Promise<void> {
  await activateLanguage(language);
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
}

const subscribe = (listener: () => void) => i18n.on('change', listener);
const current = () => (isLanguage(i18n.locale) ? i18n.locale : 'en');

/** The studio's language, following every change. */
export const useLanguage = (): Language => useSyncExternalStore(subscribe, current, () => 'en' as const);
