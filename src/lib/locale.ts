// The studio's language for formats, in one place: a BCP 47 tag ("en-US", "ar", "pt-BR") that every
// number, date, size and list is written in (format.ts). The studio's language sets it (lib/i18n/i18n.ts);
// until then, the browser's first language. A plain module with subscribe, so code without React (model/) reads it
// too; components read it through useLocale (use-locale.ts) and render again when it changes.

import { Listeners } from './store';

type Listener = () => void;

/** Used when nothing else names a language the runtime knows. */
const FALLBACK_LOCALE = 'en';

/**
 * The tag in its canonical spelling ("en-us" becomes "en-US"), or null when it is no valid BCP 47 tag.
 * @internal
 */
export function canonicalLocale(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The first valid tag of the browser's preferred languages, else English.
 * @internal
 */
export function browserLocale(
  languages: readonly string[] | undefined = globalThis.navigator?.languages,
): string {
  for (const tag of languages ?? []) {
    const locale = canonicalLocale(tag);
    if (locale) return locale;
  }
  return FALLBACK_LOCALE;
}

let current = browserLocale();
const listeners = new Listeners();

/** The active locale. */
export const getLocale = (): string => current;

/** Makes `tag` the active locale and tells every listener; an invalid tag is refused with a RangeError. */
export function setLocale(tag: string): void {
  const locale = canonicalLocale(tag);
  if (!locale) throw new RangeError(`Not a BCP 47 language tag: "${tag}"`);
  if (locale === current) return;
  current = locale;
  listeners.notify();
}

/** Calls `listener` after each change of the locale; returns the function that stops it. */
export const subscribeLocale: (listener: Listener) => () => void = listeners.subscribe;
