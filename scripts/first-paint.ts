import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Beasties from 'beasties';
import type { Plugin } from 'vite';
import { CSP_HASHES, type CspHashes } from '../server/csp';
import { readBeforePaint } from './before-paint';
import { minifyClassicScript } from './minify-before-paint';

// A first visit (an empty cache, no service worker) needs nothing but the document for its first paint
// (docs/benchmarks.md "lighthouse"). After the build and the prerender (vite.config.ts), this rewrites
// dist/index.html:
// - the CSS the prerendered page uses is inlined in a <style> (Beasties picks the rules whose selectors
//   match the document: it is what Nuxt and Angular use for this); the whole stylesheet loads after the
//   first paint, and the studio waits for it before it draws anything the inlined part may lack
//   (src/main.tsx);
// - public/before-paint.js (the theme, the language, the returning visitor's hidden page) is inlined,
//   its languages filled in (scripts/before-paint.ts) and minified, with the loader below after it: the entry script and the stylesheet are requested after
//   the first paint, or at once while the page stays hidden anyway (another language, a stored key) or
//   when the service worker serves them (a returning visit);
// - the inline script's hash is written to dist/csp-hashes.json, which the studio's server adds to its
//   Content-Security-Policy (server/csp.ts): script-src names that script and no other inline code.

const BEFORE_PAINT = 'before-paint.js';

/** The CSP source of an inline script: 'sha256-…' of its text, as the browser hashes it (UTF-8). */
const scriptHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * @internal Exported for its test.
 * The loader run after before-paint.js: the stylesheet and the entry module (with what it imports
 * statically), added to <head> after the first paint. While the page is hidden (data-reconnecting
 * without the studio's frame, data-language-pending) nothing is painted before the studio draws, and when
 * the service worker serves them they are at hand: then they are added at once.
 */
export function loaderScript(assets: { css: string[]; entry: string; preloads: string[] }): string {
  return `(function () {
  var assets = ${JSON.stringify(assets)};
  var root = document.documentElement;
  function add(tag, attributes) {
    var element = document.createElement(tag);
    for (var name in attributes) element.setAttribute(name, attributes[name]);
    document.head.appendChild(element);
  }
  function load() {
    assets.css.forEach(function (href) {
      add('link', { rel: 'stylesheet', href: href, 'data-studio-styles': '' });
    });
    assets.preloads.forEach(function (href) {
      add('link', { rel: 'modulepreload', crossorigin: '', href: href });
    });
    add('script', { type: 'module', crossorigin: '', src: assets.entry });
  }
  // At once when the page stays hidden anyway, or when the service worker serves the code (a returning
  // visit: nothing to wait for on the network, and the start-up's work is done before the first paint).
  // A stored key reconnecting hides the page, unless the studio's frame is shown meanwhile ('shell').
  var controlled = navigator.serviceWorker && navigator.serviceWorker.controller;
  var reconnecting = root.getAttribute('data-reconnecting');
  var hidden = reconnecting === null ? root.hasAttribute('data-language-pending') : reconnecting !== 'shell';
  if (hidden || controlled) load();
  else
    document.addEventListener('DOMContentLoaded', function () {
      // The frame that paints the parsed page, then the task after it.
      requestAnimationFrame(function () {
        setTimeout(load, 0);
      });
    });
})();
`;
}

const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];

/**
 * @internal Exported for its test.
 * dist/index.html as a first visit needs it; returns the page and the CSP sources of its inline script.
 */
export async function firstPaintPage(
  html: string,
  distDir: string,
  beforePaint: string,
): Promise<{ html: string; hashes: CspHashes }> {
  const scriptTag = /<script\b[^>]*\bsrc="\/before-paint\.js"[^>]*><\/script>/;
  if (!scriptTag.test(html)) throw new Error('index.html loads no /before-paint.js to inline');
  const entryTags = [...html.matchAll(/<script type="module"[^>]*><\/script>\s*/g)];
  if (entryTags.length !== 1) throw new Error(`index.html has ${entryTags.length} entry scripts, not 1`);
  const entry = attribute(entryTags[0]![0], 'src')!;
  const preloadTags = [...html.matchAll(/<link rel="modulepreload"[^>]*>\s*/g)];
  const cssTags = [...html.matchAll(/<link rel="stylesheet"[^>]*>\s*/g)];
  const css = cssTags.map((m) => attribute(m[0], 'href')!);

  const beasties = new Beasties({
    path: distDir,
    publicPath: '/',
    // The stylesheet's link is left as it is, and replaced below: every strategy Beasties has for loading
    // it later is an inline onload handler or script of its own, which the CSP would have to allow.
    // (Documented in Beasties' README, handled by its code, missing from its types.)
    preload: false as unknown as 'body',
    // The whole stylesheet stays whole: the studio's other screens need the rules inlined here too.
    pruneSource: false,
    fonts: false,
    // Every @keyframes (the stylesheet has two): Tailwind names an animation through a variable
    // (`animation: var(--animate-spin)`), which Beasties cannot follow to the keyframes it uses, so the
    // studio's frame's spinner stood still until the stylesheet arrived.
    keyframes: 'all',
    // Rules for what before-paint.js draws on <html>, which the page as built does not have: the theme
    // chosen, and the page hidden while another language or a stored key takes over (src/index.css).
    allowRules: [/^:root\[data-(theme|language-pending|reconnecting)\b/],
    logLevel: 'warn',
  });
  let out = await beasties.process(html);

  const script = minifyClassicScript(
    `${beforePaint}\n${loaderScript({ css, entry, preloads: preloadTags.map((m) => attribute(m[0], 'href')!) })}`,
  );
  for (const [tag] of [...entryTags, ...preloadTags]) out = out.replace(tag, '');
  // Without JavaScript, the stylesheet as before (the prerendered page is whole without it anyway).
  for (const [tag] of cssTags) out = out.replace(tag.trim(), `<noscript>${tag.trim()}</noscript>`);
  out = out.replace(/<!--[^>]*before the first paint[^>]*-->\s*/, '');
  // The inlined rules go before the script: when the loader adds the stylesheet at once (a returning
  // visit), the parser has not reached what follows the script, and a <style> after the stylesheet would
  // win the cascade over it (`.flex-col` inlined over the stylesheet's later `lg:flex-row`).
  const inlined = /<style>[\s\S]*?<\/style>\s*/.exec(out)?.[0] ?? '';
  if (inlined) out = out.replace(inlined, '');
  out = out.replace(scriptTag, () => `${inlined.trim()}<script>${script}</script>`);
  const inline = [...out.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return { html: out, hashes: { scriptSrc: inline.map(scriptHash) } };
}

/**
 * @internal Exported for its test.
 * Rewrites `distDir`'s index.html for the first visit, inlining the project's public/before-paint.js, and
 * writes the CSP sources of its inline script beside it.
 */
export async function writeFirstPaint(root: string, distDir: string): Promise<void> {
  const file = resolve(distDir, 'index.html');
  // Its languages filled in from the table (scripts/before-paint.ts): the hash is of the text inlined.
  const { html, hashes } = await firstPaintPage(readFileSync(file, 'utf8'), distDir, readBeforePaint(root));
  writeFileSync(file, html);
  writeFileSync(resolve(distDir, CSP_HASHES), `${JSON.stringify(hashes, null, 2)}\n`);
  // Inlined: the copy Vite made of public/ is not served.
  rmSync(resolve(distDir, BEFORE_PAINT), { force: true });
}

/** Rewrites dist/index.html once the build has written it and the connect screen is prerendered into it. */
export function firstPaint(): Plugin {
  let distDir: string;
  let root: string;
  return {
    name: 'media-studio:first-paint',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      distDir = resolve(config.root, config.build.outDir);
    },
    // Before the offline shell's worker is written (vite.config.ts), so its precache list has the
    // revision of the page as served.
    closeBundle: {
      sequential: true,
      handler: () => writeFirstPaint(root, distDir),
    },
  };
}
