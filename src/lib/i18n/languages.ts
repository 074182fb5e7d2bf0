import { LANGUAGE_TABLE, PSEUDO_LANGUAGE, type LanguageRow } from './language-table';

// The languages the studio speaks, as the studio uses them: made from the one table
// (./language-table.ts), as lingui.config.ts and public/before-paint.js are. ./i18n.ts loads the catalog
// of each language here.

/** The language choice: each language named in itself, in the table's order. */
export const LANGUAGES: ReadonlyArray<{ readonly tag: Language; readonly name: string }> = LANGUAGE_TABLE;

/** A language of the studio, or 'pseudo': the accented, longer test locale (never offered). */
export type Language = (typeof LANGUAGE_TABLE)[number]['tag'] | typeof PSEUDO_LANGUAGE;

export const isLanguage = (value: unknown): value is Language =>
  value === PSEUDO_LANGUAGE || LANGUAGES.some((l) => l.tag === value);

export const directionOf = (language: Language): 'rtl' | 'ltr' =>
  LANGUAGE_TABLE.some((row: LanguageRow) => row.tag === language && row.rtl) ? 'rtl' : 'ltr';

/**
 * The pseudo-locale's formats: Russian ones, whose month and day names are in another script, so a date
 * or a unit that the pseudo-locale shows in English was written by hand, not formatted by Intl.
 */
const PSEUDO_FORMATS = 'ru';

/** The tag Intl formats with. */
export const intlLocaleOf = (language: Language): string =>
  language === PSEUDO_LANGUAGE ? PSEUDO_FORMATS : language;
