import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import {
  LANGUAGE_TABLE,
  PSEUDO_LANGUAGE,
  rightToLeftOf,
  type LanguageRow,
} from '../src/lib/i18n/language-table';

// public/before-paint.js negotiates the language before the first paint (docs/i18n.md). A classic
// script, not bundled, it cannot import the table of languages (src/lib/i18n/language-table.ts): it
// names them by placeholders, filled in here from the table, when the build inlines the script
// (scripts/first-paint.ts, which hashes the text filled in for the CSP) and when the dev server serves it.

const FILE = 'before-paint.js';

/** A tag as it may stand in the script: BCP 47's letters, digits and hyphens, nothing to escape. */
const TAG = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;

function checkedTag(tag: string): string {
  if (!TAG.test(tag)) throw new Error(`"${tag}" is not a language tag (src/lib/i18n/language-table.ts)`);
  return tag;
}

/**
 * @internal Exported for its test.
 * public/before-paint.js's text with its languages filled in from `table`.
 */
export function fillBeforePaint(template: string, table: readonly LanguageRow[] = LANGUAGE_TABLE): string {
  const values: Record<string, unknown> = {
    __STUDIO_LANGUAGES__: table.map((row) => checkedTag(row.tag)),
    __STUDIO_RTL_LANGUAGES__: rightToLeftOf(table),
    __STUDIO_PSEUDO_LANGUAGE__: checkedTag(PSEUDO_LANGUAGE),
  };
  // The lint's note that names them (ESLint's `/* global */`) goes: they are filled in below.
  let script = template.replace(/^[ \t]*\/\* global __STUDIO_[^*]*\*\/\n/m, '');
  for (const [placeholder, value] of Object.entries(values)) {
    const parts = script.split(placeholder);
    if (parts.length !== 2)
      throw new Error(`${FILE} must name ${placeholder} once, not ${parts.length - 1} times`);
    script = parts.join(JSON.stringify(value));
  }
  const left = /__STUDIO_\w+__/.exec(script);
  if (left) throw new Error(`${FILE} names ${left[0]}, which is filled in from nothing`);
  return script;
}

/** public/before-paint.js as the page runs it: read from the project at `root`, its languages filled in. */
export const readBeforePaint = (root = resolve(fileURLToPath(import.meta.url), '../..')): string =>
  fillBeforePaint(readFileSync(resolve(root, 'public', FILE), 'utf8'));

/**
 * The dev server's /before-paint.js, filled in (the build inlines it instead, scripts/first-paint.ts).
 * Before Vite's own handling of public/, which would serve the placeholders.
 */
export function beforePaintInDev(): Plugin {
  return {
    name: 'media-studio:before-paint-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== `/${FILE}` || (req.method !== 'GET' && req.method !== 'HEAD'))
          return next();
        const script = readBeforePaint(server.config.root);
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(req.method === 'HEAD' ? undefined : script);
      });
    },
  };
}
