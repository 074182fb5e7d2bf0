import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

// The studio's languages (docs/i18n.md). Messages are written in English in the source, through Lingui's
// macros, and extracted by `npm run i18n:extract` into one PO catalog per language under src/locales/.
// English needs no catalog at run time: its messages stay in the code, compiled at build time
// (scripts/vite-lingui.ts). 'pseudo' is the pseudo-locale the e2e checks use: every message accented
// and 40 % longer, so raw English or a cut-off label shows. Its catalog is written by
// scripts/i18n/pseudo.ts (Lingui's own pseudo-locale cannot lengthen), so it is an ordinary locale here.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'zh-CN', 'ja', 'ko', 'es', 'fr', 'de', 'pt-BR', 'ar', 'pseudo'],
  fallbackLocales: { default: 'en' },
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
