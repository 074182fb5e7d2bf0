import { getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parse, type Token } from '@messageformat/parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/lib/i18n/languages';

// The catalogs (docs/i18n.md) against the source and against each other: CI fails when a catalog is
// stale or incomplete, or a translation breaks a placeholder or a plural.

type Catalog = Record<string, { message?: string; translation?: string }>;

const config = getConfig({ cwd: new URL('../..', import.meta.url).pathname });
/** The languages offered in the studio, and the pseudo-locale. */
const checked = [...LANGUAGES.map((l) => l.tag).filter((tag) => tag !== 'en'), 'pseudo'];

let source: Set<string>;
const catalogs: Record<string, Catalog> = {};

beforeAll(async () => {
  const [catalog] = await getCatalogs(config);
  const collected = (await catalog!.collect()) as Catalog | false;
  if (!collected) throw new Error('Lingui could not read the source.');
  source = new Set(Object.keys(collected));
  for (const locale of config.locales) catalogs[locale] = ((await catalog!.read(locale)) ?? {}) as Catalog;
}, 60_000);

/** What a message must keep in every language: its placeholders and its rich-text tags. */
function shape(message: string): { args: string[]; tags: string[] } {
  const args = new Set<string>();
  const tags = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'content') for (const m of token.value.matchAll(/<\/?(\d+)\/?>/g)) tags.add(m[0]);
      else if (token.type === 'argument' || token.type === 'function') args.add(token.arg);
      else if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        args.add(token.arg);
        token.cases.forEach((c) => walk(c.tokens));
      }
    }
  };
  walk(parse(message));
  return { args: [...args].sort(), tags: [...tags].sort() };
}

/** Each plural in `message` with the categories it gives. */
function plurals(message: string): Array<{ type: 'cardinal' | 'ordinal'; keys: string[] }> {
  const found: Array<{ type: 'cardinal' | 'ordinal'; keys: string[] }> = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'plural' || token.type === 'selectordinal')
        found.push({
          type: token.type === 'plural' ? 'cardinal' : 'ordinal',
          keys: token.cases.map((c) => c.key),
        });
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal')
        token.cases.forEach((c) => walk(c.tokens));
    }
  };
  walk(parse(message));
  return found;
}

describe('the catalogs', () => {
  it('hold exactly the messages in the source (run npm run i18n:extract after changing one)', () => {
    for (const locale of config.locales) {
      expect(new Set(Object.keys(catalogs[locale]!)), locale).toEqual(source);
    }
  });

  it.each(checked)('%s translates every message', (locale) => {
    const missing = Object.entries(catalogs[locale]!)
      .filter(([, m]) => !m.translation?.trim())
      .map(([, m]) => m.message);
    expect(missing).toEqual([]);
  });

  it.each(checked)('%s keeps every placeholder and tag, and each translation compiles', (locale) => {
    for (const m of Object.values(catalogs[locale]!)) {
      if (!m.translation || !m.message) continue;
      expect(() => compileMessage(m.translation!), m.translation).not.toThrow();
      expect(shape(m.translation), `${locale}: ${m.translation}`).toEqual(shape(m.message));
    }
  });

  it.each(checked)('%s gives every plural form the language has', (locale) => {
    const intlLocale = locale === 'pseudo' ? 'en' : locale;
    for (const m of Object.values(catalogs[locale]!)) {
      if (!m.translation) continue;
      for (const { type, keys } of plurals(m.translation)) {
        const needed = new Intl.PluralRules(intlLocale, { type }).resolvedOptions().pluralCategories;
        expect(
          needed.filter((c) => !keys.includes(c)),
          `${locale}: ${m.translation}`,
        ).toEqual([]);
      }
    }
  });
});
