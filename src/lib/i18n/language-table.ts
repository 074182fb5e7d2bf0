/* eslint-disable lingui/no-unlocalized-strings -- the languages, each named in itself ("Deutsch", "Français"): the same in every language. */

// The studio's languages: the one list of them (docs/i18n.md "How to add a language"). Data, and the
// lists made from it, importing nothing, so that Node's tools and the browser read the same rows:
// - lingui.config.ts: the locales Lingui extracts a catalog for;
// - src/lib/i18n/languages.ts: the language choice, the direction of each language, and so the
//   languages src/lib/i18n/i18n.ts loads a catalog for (src/locales/<tag>.po, found by its tag);
// - scripts/before-paint.ts: the tags and the right-to-left ones that public/before-paint.js negotiates
//   with before the first paint, filled in when the build inlines it and when the dev server serves it.
// The functions below take the table as an argument, never read it themselves: a test replaces the
// table alone and every list follows (src/lib/i18n/add-a-language.test.ts).

export interface LanguageRow {
  /** Its BCP 47 tag: <html lang>, the catalog's file name (src/locales/<tag>.po), and what Intl formats with. */
  readonly tag: string;
  /** Its name in itself, as the language choice shows it. */
  readonly name: string;
  /** Written right to left: <html dir="rtl">. */
  readonly rtl?: true;
}

/**
 * The languages the studio speaks, in the order the language choice lists them. For a browser's
 * language the studio has no exact tag for, the first row of the same base language is taken
 * (pt-PT gives pt-BR; public/before-paint.js).
 */
export const LANGUAGE_TABLE = [
  { tag: 'en', name: 'English' },
  { tag: 'zh-CN', name: '简体中文' },
  { tag: 'ja', name: '日本語' },
  { tag: 'ko', name: '한국어' },
  { tag: 'es', name: 'Español' },
  { tag: 'fr', name: 'Français' },
  { tag: 'de', name: 'Deutsch' },
  { tag: 'pt-BR', name: 'Português (Brasil)' },
  { tag: 'ar', name: 'العربية', rtl: true },
] as const satisfies readonly LanguageRow[];

/** The language the messages are written in, in the code: it needs no catalog. */
export const SOURCE_LANGUAGE = 'en' satisfies (typeof LANGUAGE_TABLE)[number]['tag'];

/**
 * The pseudo-locale: every message accented and 40 % longer (scripts/i18n/pseudo.ts). A locale with a
 * catalog, never offered in the language choice: chosen only by being stored, as the e2e checks do.
 */
export const PSEUDO_LANGUAGE = 'pseudo';

/**
 * Every locale with a catalog file (Lingui's locales): the table's, then the pseudo-locale.
 * @internal Read by lingui.config.ts (a build's config, not the studio's code).
 */
export const localesOf = (table: readonly LanguageRow[]): string[] => [
  ...table.map((row) => row.tag),
  PSEUDO_LANGUAGE,
];

/** The tags written right to left. */
export const rightToLeftOf = (table: readonly LanguageRow[]): string[] =>
  table.filter((row) => row.rtl).map((row) => row.tag);
