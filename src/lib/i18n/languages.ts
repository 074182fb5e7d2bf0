// The languages the studio speaks (docs/i18n.md), each named in itself. public/before-paint.js keeps
// the same tags (a classic script cannot import this module); a test holds the two lists equal.

export const LANGUAGES = [
  { tag: 'en', name: 'English' },
  { tag: 'zh-CN', name: '简体中文' },
  { tag: 'ja', name: '日本語' },
  { tag: 'ko', name: '한국어' },
  { tag: 'es', name: 'Español' },
  { tag: 'fr', name: 'Français' },
  { tag: 'de', name: 'Deutsch' },
  { tag: 'pt-BR', name: 'Português (Brasil)' },
  { tag: 'ar', name: 'العربية' },
] as const;

/** A language of the studio, or 'pseudo': the accented, longer test locale (never offered). */
export type Language = (typeof LANGUAGES)[number]['tag'] | 'pseudo';

export const isLanguage = (value: unknown): value is Language =>
  value === 'pseudo' || LANGUAGES.some((l) => l.tag === value);

export const directionOf = (language: Language): 'rtl' | 'ltr' => (language === 'ar' ? 'rtl' : 'ltr');

/**
 * The pseudo-locale's formats: Russian ones, whose month and day names are in another script, so a date
 * or a unit that the pseudo-locale shows in English was written by hand, not formatted by Intl.
 */
const PSEUDO_FORMATS = 'ru';

/** The tag Intl formats with. */
export const intlLocaleOf = (language: Language): string =>
  language === 'pseudo' ? PSEUDO_FORMATS : language;
