import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import linguiConfig from '../../../lingui.config';
import { writeFirstPaint } from '../../../scripts/first-paint';
import { activateEnglish, activateLanguage } from './i18n';
import type * as LanguageTable from './language-table';
import { directionOf, isLanguage, LANGUAGES } from './languages';

// docs/i18n.md "How to add a language", followed once: its first step, a row in the table
// (language-table.ts), here two rows added to it, one right to left. Every module that lists the
// languages is loaded over that table, and each must speak the new languages: a list of languages
// written anywhere by hand instead of made from the table fails here. The language choice is checked
// the same way beside it (src/components/language-choice.test.tsx); the next steps, extracting and
// translating the catalog, are checked for every language by scripts/i18n/catalogs.test.ts.

const ADDED = vi.hoisted(() => [
  // ISO 639's codes for local use (qaa-qtz) and a private-use region (QM): no real language.
  { tag: 'qaa', name: 'Qaa', rtl: true as const },
  { tag: 'qab-QM', name: 'Qab' },
]);

vi.mock('./language-table', async (importOriginal) => {
  const table = await importOriginal<typeof LanguageTable>();
  return { ...table, LANGUAGE_TABLE: [...table.LANGUAGE_TABLE, ...ADDED] };
});

const projectRoot = resolve(fileURLToPath(import.meta.url), '../../../..');

describe('a language added to the table', () => {
  it('gets a catalog from Lingui, before the pseudo-locale', () => {
    expect(linguiConfig.locales).toEqual([
      'en',
      'zh-CN',
      'ja',
      'ko',
      'es',
      'fr',
      'de',
      'pt-BR',
      'ar',
      'qaa',
      'qab-QM',
      'pseudo',
    ]);
    expect(linguiConfig.sourceLocale).toBe('en');
  });

  it('is a language of the studio, with its direction', () => {
    expect(LANGUAGES.slice(-2).map(({ tag, name }) => ({ tag, name }))).toEqual([
      { tag: 'qaa', name: 'Qaa' },
      { tag: 'qab-QM', name: 'Qab' },
    ]);
    const tags: string[] = ['qaa', 'qab-QM', 'ar', 'en', 'pseudo'];
    expect(tags.filter(isLanguage)).toEqual(tags);
    expect(tags.filter(isLanguage).map(directionOf)).toEqual(['rtl', 'ltr', 'rtl', 'ltr', 'ltr']);
  });

  it('has its catalog loaded when chosen; the pseudo-locale’s still loads', async () => {
    const added: string = 'qaa';
    if (!isLanguage(added)) throw new Error('qaa is no language');
    // A language the catalogs do not know would be drawn in English, without a word: this one is
    // looked for in src/locales/, where `npm run i18n:extract` (the next step) has not written it here.
    await expect(activateLanguage(added)).rejects.toThrow('No src/locales/qaa.po: npm run i18n:extract');
    await activateLanguage('pseudo');
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['pseudo', 'ltr']);
    activateEnglish();
  });
});

describe('the build’s before-paint script, with a language added to the table', () => {
  const dist = mkdtempSync(join(tmpdir(), 'add-a-language-'));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  let script: string;
  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.css'), '.used{color:red}');
    writeFileSync(
      join(dist, 'index.html'),
      `<!doctype html><html lang="en"><head>
<script src="/before-paint.js"></script>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="stylesheet" crossorigin href="/assets/index-abc.css">
</head><body><div id="root"><p class="used">Connect</p></div></body></html>`,
    );
    // What the build does after the prerender (scripts/first-paint.ts), with the project's before-paint.js.
    await writeFirstPaint(projectRoot, dist);
    script = /<script>([\s\S]*?)<\/script>/.exec(readFileSync(join(dist, 'index.html'), 'utf8'))![1]!;
  });

  /** The inlined script run as a page runs it: what it draws on <html>. */
  function drawn(visit: { languages?: string[]; stored?: string }) {
    const attributes = new Set<string>();
    const root = {
      lang: 'en',
      dir: '',
      setAttribute: (name: string) => void attributes.add(name),
      removeAttribute: (name: string) => void attributes.delete(name),
      hasAttribute: (name: string) => attributes.has(name),
      getAttribute: (name: string) => (attributes.has(name) ? '' : null),
    };
    const storage = {
      getItem: (key: string) => (key === 'media-studio:language' ? (visit.stored ?? null) : null),
    };
    runInNewContext(script, {
      document: {
        documentElement: root,
        head: { appendChild: () => undefined },
        createElement: () => ({ setAttribute: () => undefined }),
        addEventListener: () => undefined,
      },
      navigator: { languages: visit.languages ?? [] },
      localStorage: storage,
      sessionStorage: storage,
      setTimeout: () => undefined,
    });
    return { lang: root.lang, dir: root.dir, pending: attributes.has('data-language-pending') };
  }

  it('is allowed by the CSP hash of the text inlined', () => {
    const hashes = JSON.parse(readFileSync(join(dist, 'csp-hashes.json'), 'utf8')) as unknown;
    const digest = createHash('sha256').update(script, 'utf8').digest('base64');
    expect(hashes).toEqual({ scriptSrc: [`'sha256-${digest}'`] });
  });

  it('draws the new languages, right to left where the row says so', () => {
    expect(drawn({ languages: ['qaa-EG', 'en'] })).toEqual({ lang: 'qaa', dir: 'rtl', pending: true });
    expect(drawn({ languages: ['qab-XA'] })).toEqual({ lang: 'qab-QM', dir: 'ltr', pending: true });
    expect(drawn({ stored: 'qaa', languages: ['fr'] })).toEqual({ lang: 'qaa', dir: 'rtl', pending: true });
  });

  it('draws the others as before, the pseudo-locale too', () => {
    expect(drawn({ languages: ['ar-EG'] })).toEqual({ lang: 'ar', dir: 'rtl', pending: true });
    expect(drawn({ languages: ['pt-PT'] })).toEqual({ lang: 'pt-BR', dir: 'ltr', pending: true });
    expect(drawn({ stored: 'pseudo' })).toEqual({ lang: 'pseudo', dir: 'ltr', pending: true });
    expect(drawn({ languages: ['sv-SE'] })).toEqual({ lang: 'en', dir: 'ltr', pending: false });
  });
});
