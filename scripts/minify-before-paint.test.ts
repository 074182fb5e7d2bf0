import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readBeforePaint } from './before-paint';
import { minifyClassicScript } from './minify-before-paint';

// The build serves public/before-paint.js minified (minify-before-paint.ts): the minified script must
// draw on <html> exactly what the source draws, for every way a language and a theme are chosen. The
// source is the file with its languages filled in (before-paint.ts), as the build minifies it.

const source = readBeforePaint();
const minified = minifyClassicScript(source);

interface Visit {
  stored?: Record<string, string>;
  /** This tab's sessionStorage. */
  session?: Record<string, string>;
  storageRefused?: boolean;
  languages?: readonly string[];
  language?: string;
  /** A service worker controls the page (it serves the studio's code). */
  controlled?: boolean;
}

/** Runs a script as the browser runs before-paint.js, and returns what it drew on <html>. */
function drawn(script: string, visit: Visit) {
  const attributes = new Map<string, string>();
  const root = {
    lang: 'en',
    dir: '',
    setAttribute: (name: string, value: string) => void attributes.set(name, value),
    removeAttribute: (name: string) => void attributes.delete(name),
  };
  // Timers, the page's DOMContentLoaded and animation frames, run in the order they were asked for.
  const queue: Array<() => void> = [];
  let tasks = 0;
  // Intl's formatters the script makes (the locale data it warms): kind and locale.
  const warmed: string[] = [];
  const formatter = (kind: string) =>
    function (locale: string) {
      warmed.push(`${kind} ${locale}`);
      return { format: () => '' };
    };
  runInNewContext(script, {
    Intl: {
      NumberFormat: formatter('NumberFormat'),
      ListFormat: formatter('ListFormat'),
      DateTimeFormat: formatter('DateTimeFormat'),
    },
    document: {
      documentElement: root,
      addEventListener: (type: string, run: () => void) =>
        void (type === 'DOMContentLoaded' && queue.push(run)),
    },
    requestAnimationFrame: (run: () => void) => void queue.push(run),
    navigator: {
      languages: visit.languages,
      language: visit.language,
      serviceWorker: { controller: visit.controlled ? {} : null },
    },
    localStorage: {
      getItem: (key: string) => {
        if (visit.storageRefused) throw new Error('SecurityError');
        return visit.stored?.[key] ?? null;
      },
    },
    get sessionStorage() {
      if (visit.storageRefused) throw new Error('SecurityError');
      return { getItem: (key: string) => visit.session?.[key] ?? null };
    },
    setTimeout: (run: () => void) => {
      tasks++;
      queue.push(run);
    },
  });
  const before = { lang: root.lang, dir: root.dir, attributes: Object.fromEntries(attributes) };
  // What was warmed before the page was parsed and painted.
  const warmedAtOnce = [...warmed];
  while (queue.length) queue.shift()!();
  return { ...before, afterTimeout: Object.fromEntries(attributes), tasks, warmed, warmedAtOnce };
}

const visits: Array<[string, Visit]> = [
  ['a browser in English', { languages: ['en-US', 'fr'] }],
  ['a browser in Brazilian Portuguese', { languages: ['pt-BR'] }],
  ['a European Portuguese browser (pt-BR by its language)', { languages: ['pt-PT', 'en'] }],
  ['traditional Chinese, then French', { languages: ['zh-TW', 'zh-Hant-HK', 'fr-CA'] }],
  ['simplified Chinese in Singapore', { languages: ['zh-Hans-SG'] }],
  ['no navigator.languages', { language: 'de-AT' }],
  ['a language the studio does not speak', { languages: ['sv-SE'] }],
  ['Arabic chosen on this device', { stored: { 'media-studio:language': 'ar' }, languages: ['en'] }],
  ['the pseudo-locale stored', { stored: { 'media-studio:language': 'pseudo' } }],
  ['a stored value that is no language', { stored: { 'media-studio:language': 'xx' }, languages: ['ko'] }],
  ['the dark theme chosen', { stored: { 'media-studio:theme': 'dark' }, languages: ['ja'] }],
  ['a theme that is no theme', { stored: { 'media-studio:theme': 'blue' } }],
  ['storage refused', { storageRefused: true, languages: ['es-MX'] }],
  ['a key remembered on this device', { stored: { 'media-studio:api-key': 'gm_live_x' } }],
  [
    'a key remembered, the service worker serving the code',
    { stored: { 'media-studio:api-key': 'gm_live_x' }, controlled: true },
  ],
  [
    'a key kept in this tab, in French',
    { session: { 'media-studio:api-key': 'gm_live_x' }, languages: ['fr'] },
  ],
];

describe('before-paint.js as the build serves it', () => {
  it('is minified: no comments, under half the size of its source', () => {
    expect(minified).not.toMatch(/\/\/ |\/\*/);
    expect(minified.length).toBeLessThan(source.length / 2);
  });

  it.each(visits)('draws what its source draws: %s', (_, visit) => {
    expect(drawn(minified, visit)).toEqual(drawn(source, visit));
  });

  it('draws the language and direction, hidden until the studio draws it, and the theme', () => {
    expect(
      drawn(minified, { stored: { 'media-studio:language': 'ar', 'media-studio:theme': 'dark' } }),
    ).toEqual({
      lang: 'ar',
      dir: 'rtl',
      attributes: { 'data-theme': 'dark', 'data-language-pending': '' },
      afterTimeout: { 'data-theme': 'dark' },
      tasks: 1,
      warmed: [],
      warmedAtOnce: [],
    });
    expect(drawn(minified, { languages: ['pt-PT'] })).toMatchObject({ lang: 'pt-BR', dir: 'ltr' });
    expect(drawn(minified, { languages: ['zh-TW', 'fr-CA'] })).toMatchObject({ lang: 'fr' });
    expect(drawn(minified, { storageRefused: true, languages: ['sv'] })).toEqual({
      lang: 'en',
      dir: 'ltr',
      attributes: {},
      afterTimeout: {},
      tasks: 0,
      warmed: [],
      warmedAtOnce: [],
    });
  });

  it('hides the connect screen while a stored key reconnects, and never for good', () => {
    for (const visit of [
      { stored: { 'media-studio:api-key': 'gm_live_x' }, controlled: true },
      { session: { 'media-studio:api-key': 'gm_live_x' }, controlled: true },
    ])
      expect(drawn(minified, visit)).toMatchObject({
        attributes: { 'data-reconnecting': '' },
        afterTimeout: {},
      });
    expect(drawn(minified, { stored: { 'media-studio:api-key': '' } }).attributes).toEqual({});
    expect(drawn(minified, {}).attributes).toEqual({});
    expect(drawn(minified, { storageRefused: true, languages: ['sv'] })).toEqual({
      lang: 'en',
      dir: 'ltr',
      attributes: {},
      afterTimeout: {},
      tasks: 0,
      warmed: [],
      warmedAtOnce: [],
    });
  });

  it('shows the studio’s frame while a stored key reconnects without a service worker serving the code', () => {
    for (const visit of [
      { stored: { 'media-studio:api-key': 'gm_live_x' } },
      { session: { 'media-studio:api-key': 'gm_live_x' }, languages: ['ja'] },
    ])
      expect(drawn(minified, visit)).toMatchObject({
        attributes: { 'data-reconnecting': 'shell' },
        afterTimeout: {},
      });
    // Its source too (the harness is not blind to the difference).
    expect(
      drawn(source, { stored: { 'media-studio:api-key': 'gm_live_x' }, controlled: true }).attributes,
    ).toEqual({ 'data-reconnecting': '' });
  });

  it('warms the locale data of the studio while a stored key reconnects, each kind in a task of its own', () => {
    const reconnecting = drawn(minified, {
      stored: { 'media-studio:api-key': 'gm_live_x' },
      languages: ['fr'],
      controlled: true,
    });
    // The language's fallback, the page's, and one task per kind of formatter.
    expect(reconnecting.tasks).toBe(5);
    expect(reconnecting.warmed).toEqual(['NumberFormat fr', 'ListFormat fr', 'DateTimeFormat fr']);
    expect(reconnecting.warmedAtOnce).toEqual([]);
    // With the studio's frame shown, after the page is parsed and painted, not before its first paint.
    const shown = drawn(minified, { stored: { 'media-studio:api-key': 'gm_live_x' }, languages: ['fr'] });
    expect(shown.tasks).toBe(5);
    expect(shown.warmed).toEqual(['NumberFormat fr', 'ListFormat fr', 'DateTimeFormat fr']);
    // The connect screen is shown at once: nothing to warm before it.
    expect(drawn(minified, { languages: ['fr'] }).warmed).toEqual([]);
  });
});
