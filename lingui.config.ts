import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { LANGUAGE_TABLE, localesOf, SOURCE_LANGUAGE } from './src/lib/i18n/language-table';

// The studio's languages (docs/i18n.md): one catalog each, from the table in
// src/lib/i18n/language-table.ts. Messages are written in English in the source, through Lingui's
// macros, and extracted by `npm run i18n:extract` into one PO catalog per language under src/locales/.
// English needs no catalog at run time: its messages stay in the code, compiled at build time
// (scripts/i18n/vite-lingui.ts). 'pseudo' is the pseudo-locale the e2e checks use: every message accented
// and 40 % longer, so raw English or a cut-off label shows. Its catalog is written by
// scripts/i18n/pseudo.ts (Lingui's own pseudo-locale cannot lengthen), so it is an ordinary locale here.
export default defineConfig({
  sourceLocale: SOURCE_LANGUAGE,
  locales: localesOf(LANGUAGE_TABLE),
  fallbackLocales: { default: SOURCE_LANGUAGE },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}',
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '<rootDir>/src/test/**'],
    },
  ],
  // Each message's files, not its line numbers: a catalog changes when its messages do, not when code moves.
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
