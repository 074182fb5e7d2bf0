import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_TABLE } from '../src/lib/i18n/language-table';
import { beforePaintInDev, fillBeforePaint, readBeforePaint } from './before-paint';

// public/before-paint.js names the languages by placeholders, filled in from the table
// (src/lib/i18n/language-table.ts) by before-paint.ts: for the build, which inlines it, and for the dev
// server, which serves it. What the filled script draws is tested in src/lib/i18n/i18n.test.ts and
// minify-before-paint.test.ts; adding a language, in src/lib/i18n/add-a-language.test.ts.

const template = `var SUPPORTED = __STUDIO_LANGUAGES__;
var RIGHT_TO_LEFT = __STUDIO_RTL_LANGUAGES__;
var PSEUDO = __STUDIO_PSEUDO_LANGUAGE__;`;

describe('filling in before-paint.js', () => {
  it('writes the table’s tags, its right-to-left ones and the pseudo-locale’s as literals', () => {
    expect(
      fillBeforePaint(template, [
        { tag: 'en', name: 'English' },
        { tag: 'he', name: 'עברית', rtl: true },
      ]),
    ).toBe(`var SUPPORTED = ["en","he"];
var RIGHT_TO_LEFT = ["he"];
var PSEUDO = "pseudo";`);
  });

  it('drops the lint’s note that names the placeholders', () => {
    expect(
      fillBeforePaint(`  /* global __STUDIO_LANGUAGES__, __STUDIO_RTL_LANGUAGES__ */\n${template}`, []),
    ).toBe('var SUPPORTED = [];\nvar RIGHT_TO_LEFT = [];\nvar PSEUDO = "pseudo";');
  });

  it('leaves no placeholder in the project’s script', () => {
    const script = readBeforePaint();
    expect(script).not.toMatch(/__STUDIO_/);
    expect(script).toContain(`var SUPPORTED = ${JSON.stringify(LANGUAGE_TABLE.map((l) => l.tag))};`);
    expect(script).toContain('var RIGHT_TO_LEFT = ["ar"];');
  });

  it('refuses a script that lacks a placeholder, names one twice, or names one it cannot fill', () => {
    expect(() => fillBeforePaint(template.replace('__STUDIO_RTL_LANGUAGES__', '[]'))).toThrow(
      /__STUDIO_RTL_LANGUAGES__ once, not 0 times/,
    );
    expect(() => fillBeforePaint(`${template}\n__STUDIO_LANGUAGES__`)).toThrow(/once, not 2 times/);
    expect(() => fillBeforePaint(`${template}\n__STUDIO_THEMES__`)).toThrow(/__STUDIO_THEMES__/);
  });

  it('refuses a tag that could break out of the script', () => {
    expect(() => fillBeforePaint(template, [{ tag: 'en"];alert(1);//', name: 'x' }])).toThrow(
      /is not a language tag/,
    );
    expect(() => fillBeforePaint(template, [{ tag: '</script>', name: 'x' }])).toThrow(
      /is not a language tag/,
    );
  });
});

/** GET /before-paint.js from a dev server of the project with `plugins`. */
async function servedByDevServer(plugins: Plugin[]) {
  const vite = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('..', import.meta.url)),
    logLevel: 'error',
    plugins,
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    appType: 'custom',
  });
  const http = createHttpServer(vite.middlewares);
  try {
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const { port } = http.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/before-paint.js?v=1`);
    return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
  } finally {
    http.close();
    await vite.close();
  }
}

describe('the dev server’s before-paint.js', () => {
  it('is served filled in, not as public/ holds it', async () => {
    const served = await servedByDevServer([beforePaintInDev()]);
    expect(served.status).toBe(200);
    expect(served.type).toMatch(/^text\/javascript/);
    expect(served.text).toBe(readBeforePaint());
    // Without the plugin, Vite serves the file as it is, placeholders and all.
    expect((await servedByDevServer([])).text).toContain('__STUDIO_LANGUAGES__');
  });
});
