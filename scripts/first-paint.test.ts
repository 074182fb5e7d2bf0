import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { firstPaintPage, loaderScript } from './first-paint';

// The built index.html of a first visit (first-paint.ts): the prerendered page's CSS inline, the whole
// stylesheet and the entry loaded by the inline script, its hash for the CSP.

const dist = mkdtempSync(join(tmpdir(), 'first-paint-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));
mkdirSync(join(dist, 'assets'));
writeFileSync(
  join(dist, 'assets', 'index-abc.css'),
  '.used{color:red}.unused-elsewhere{color:blue}@media (prefers-color-scheme:dark){.dark\\:used:where(:not([data-theme=light],[data-theme=light] *)){color:white}}[data-theme=dark] .used{color:black}:root[data-theme=dark]{color-scheme:dark}:root[data-reconnecting] #root,:root[data-language-pending] #root{visibility:hidden}:root{--animate-spin:spin 1s linear infinite}.animate-spin{animation:var(--animate-spin)}@keyframes spin{to{transform:rotate(360deg)}}',
);
const built = `<!doctype html>
<html lang="en">
  <head>
    <!-- The theme and language chosen, drawn before the first paint: blocking on purpose. -->
    <script src="/before-paint.js"></script>
    <title>Media Studio</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"><p class="used dark:used">Connect to the API</p><svg class="animate-spin"></svg></div>
  </body>
</html>`;
const beforePaint = `// comment\nvar chosen = 'light'; document.documentElement.setAttribute('data-theme', chosen);\n`;

describe('the first visit’s index.html', () => {
  it('holds the CSS the page uses inline (dark variants too), and loads no stylesheet or script itself', async () => {
    const { html } = await firstPaintPage(built, dist, beforePaint);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(style).toContain('.used{color:red}');
    expect(style).toContain('.dark\\:used');
    // What before-paint.js draws on <html>: the theme chosen, the page hidden while it is taken over.
    expect(style).toContain(':root[data-theme=dark]{color-scheme:dark}');
    expect(style).toContain(
      ':root[data-reconnecting] #root,:root[data-language-pending] #root{visibility:hidden}',
    );
    expect(style).not.toContain('unused-elsewhere');
    // An animation named through a variable, as Tailwind writes it, turns before the stylesheet arrives.
    expect(style).toContain('.animate-spin{animation:var(--animate-spin)}');
    expect(style).toContain('@keyframes spin');
    // Only the fallback without JavaScript links the stylesheet; nothing else is requested by the markup.
    expect(html).toContain(
      '<noscript><link rel="stylesheet" crossorigin href="/assets/index-abc.css"></noscript>',
    );
    expect(html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '')).not.toMatch(
      /<link rel="(stylesheet|modulepreload)"|<script [^>]*src=/,
    );
    expect(html).not.toContain('before the first paint');
  });

  it('has one inline script, before-paint.js minified then the loader, named by its hash', async () => {
    const { html, hashes } = await firstPaintPage(built, dist, beforePaint);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).not.toContain('// comment');
    expect(scripts[0]).toContain('/assets/index-abc.js');
    const digest = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(hashes).toEqual({ scriptSrc: [`'sha256-${digest}'`] });
  });

  it('puts the inlined CSS before the script, so a stylesheet the loader adds at once comes after it in the cascade', async () => {
    const { html } = await firstPaintPage(built, dist, beforePaint);
    expect(html.indexOf('<style>')).toBeGreaterThan(0);
    expect(html.indexOf('<style>')).toBeLessThan(html.indexOf('<script>'));
    // What the browser does with it: the loader runs while the parser is in the script, so what it
    // appends to <head> lands after every element before the script and before every element after it.
    const head = /<head>([\s\S]*?)<script>/.exec(html)![1]!;
    expect(head).toContain('<style>');
  });

  it('refuses a page it cannot make whole', async () => {
    await expect(
      firstPaintPage(built.replace('/before-paint.js', '/other.js'), dist, beforePaint),
    ).rejects.toThrow(/before-paint/);
  });
});

/** Runs the loader in a page with these attributes on <html>, returns what it added to <head> and when. */
function runLoader(attributes: Record<string, string>, controlled = false) {
  const added: Array<Record<string, string>> = [];
  const queue: Array<[string, () => void]> = [];
  const element = (tag: string) => {
    const attributes: Record<string, string> = { tag };
    return { setAttribute: (n: string, v: string) => void (attributes[n] = v), attributes };
  };
  runInNewContext(loaderScript({ css: ['/a.css'], entry: '/e.js', preloads: ['/r.js'] }), {
    document: {
      documentElement: {
        hasAttribute: (name: string) => name in attributes,
        getAttribute: (name: string) => attributes[name] ?? null,
      },
      createElement: element,
      head: { appendChild: (e: ReturnType<typeof element>) => void added.push(e.attributes) },
      addEventListener: (type: string, run: () => void) => void queue.push([type, run]),
    },
    navigator: { serviceWorker: { controller: controlled ? {} : null } },
    requestAnimationFrame: (run: () => void) => void queue.push(['frame', run]),
    setTimeout: (run: () => void) => void queue.push(['task', run]),
  });
  const steps: string[] = [];
  while (queue.length) {
    const [step, run] = queue.shift()!;
    steps.push(step);
    run();
  }
  return { added, steps };
}

describe('the loader', () => {
  it('adds the stylesheet, the preloads and the entry after the page is parsed and painted', () => {
    const { added, steps } = runLoader({});
    expect(steps).toEqual(['DOMContentLoaded', 'frame', 'task']);
    expect(added).toEqual([
      { tag: 'link', rel: 'stylesheet', href: '/a.css', 'data-studio-styles': '' },
      { tag: 'link', rel: 'modulepreload', crossorigin: '', href: '/r.js' },
      { tag: 'script', type: 'module', crossorigin: '', src: '/e.js' },
    ]);
  });

  it('adds them at once while the page stays hidden (a stored key, another language)', () => {
    for (const attributes of [{ 'data-reconnecting': '' }, { 'data-language-pending': '' }] as Array<
      Record<string, string>
    >) {
      const { added, steps } = runLoader(attributes);
      expect(steps).toEqual([]);
      expect(added.map((a) => a.tag)).toEqual(['link', 'link', 'script']);
    }
  });

  it('waits for the first paint while the studio’s frame is shown for a stored key, in any language', () => {
    for (const attributes of [
      { 'data-reconnecting': 'shell' },
      { 'data-reconnecting': 'shell', 'data-language-pending': '' },
    ] as Array<Record<string, string>>) {
      const { added, steps } = runLoader(attributes);
      expect(steps).toEqual(['DOMContentLoaded', 'frame', 'task']);
      expect(added.map((a) => a.tag)).toEqual(['link', 'link', 'script']);
    }
  });

  it('adds them at once when the service worker serves them (a returning visit)', () => {
    const { added, steps } = runLoader({}, true);
    expect(steps).toEqual([]);
    expect(added.map((a) => a.tag)).toEqual(['link', 'link', 'script']);
  });
});

it('the source of before-paint.js is what the build inlines', () => {
  expect(readFileSync(new URL('../public/before-paint.js', import.meta.url), 'utf8')).toContain(
    'data-reconnecting',
  );
});
