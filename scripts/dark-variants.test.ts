import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

// The dark scheme changes colours only: no `dark:` variant shows or hides anything. The accessibility
// checks (e2e/axe-helpers.ts) rely on it: they run every axe rule in the light scheme and, in the dark,
// only the rules that read colours, since nothing else differs.
const SRC = new URL('../src/', import.meta.url).pathname;

const SHOWS_OR_HIDES =
  /^(?:hidden|block|inline|inline-block|inline-flex|inline-grid|flex|grid|contents|flow-root|list-item|table(?:-[\w-]+)?|sr-only|not-sr-only|invisible|visible|collapse)$/;

/** The utilities under a dark: variant in a line ("md:dark:hover:block" -> "block"). */
function darkUtilitiesIn(line: string): string[] {
  return [...line.matchAll(/(?:^|[\s"'`])((?:[\w-]+:)*dark:(?:[\w-]+:)*!?[\w/.[\]-]+)/g)].map((m) =>
    m[1]!.split(':').pop()!.replace(/^!/, ''),
  );
}

const showingOrHiding = (line: string) => darkUtilitiesIn(line).filter((u) => SHOWS_OR_HIDES.test(u));

describe('the dark scheme changes colours only', () => {
  it('knows a dark: variant that shows or hides from one that colours', () => {
    expect(
      showingOrHiding(
        'className="dark:hidden md:dark:block dark:sm:sr-only dark:!invisible dark:inline-flex"',
      ),
    ).toEqual(['hidden', 'block', 'sr-only', 'invisible', 'inline-flex']);
    expect(
      showingOrHiding(
        "cn('dark:bg-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:ring-slate-800')",
      ),
    ).toEqual([]);
    // `hidden` without the variant is not the scheme's doing.
    expect(showingOrHiding("'hidden sm:block dark:border-slate-700'")).toEqual([]);
  });

  it('finds no dark: variant in src/ that shows or hides, and no other stylesheet rule for the scheme', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC, /\.(tsx?|css)$/)) {
      const text = readFileSync(file, 'utf8');
      text.split('\n').forEach((line, i) => {
        for (const u of showingOrHiding(line)) found.push(`${relative(SRC, file)}:${i + 1} dark:${u}`);
      });
      // The scheme reaches CSS only in index.css: the `dark` variant's definition (three mentions) and
      // the browser's own parts' color-scheme (one).
      if (file.endsWith('.css'))
        expect(text.match(/prefers-color-scheme|data-theme='dark'/g)?.length ?? 0, relative(SRC, file)).toBe(
          file.endsWith('index.css') ? 4 : 0,
        );
    }
    expect(found).toEqual([]);
  });
});
