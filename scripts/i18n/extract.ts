import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { formatter } from '@lingui/format-po';
import { pseudoMessage } from './pseudo';

// `npm run i18n:extract` (docs/i18n.md): Lingui's extractor reads every message from the source into
// the catalogs (src/locales/<tag>.po; a message no longer in the source is dropped), then the
// pseudo-locale's catalog is written from the English one.

const locales = new URL('../../src/locales/', import.meta.url);
execFileSync('npx', ['lingui', 'extract', '--clean'], { stdio: 'inherit' });

const po = formatter({ lineNumbers: false });
const en = await po.parse(readFileSync(new URL('en.po', locales), 'utf8'), {
  locale: 'en',
  sourceLocale: 'en',
  filename: 'en.po',
});
const pseudoFile = new URL('pseudo.po', locales);
const pseudo = Object.fromEntries(
  Object.entries(en).map(([id, m]) => [id, { ...m, translation: pseudoMessage(m.message ?? '') }]),
);
writeFileSync(
  pseudoFile,
  await po.serialize(pseudo, {
    locale: 'pseudo',
    sourceLocale: 'en',
    existing: readFileSync(pseudoFile, 'utf8'),
    filename: 'pseudo.po',
  }),
);
console.log(`pseudo.po: ${Object.keys(pseudo).length} messages`);
