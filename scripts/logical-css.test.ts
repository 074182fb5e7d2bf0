import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

// Layout in logical directions (start/end), so right-to-left needs no second stylesheet: a Tailwind
// utility that names a physical side (ml-, pr-, left-, text-right, rounded-l, border-r, float-left...) is
// refused in src/ unless it is one of the places below, where mirroring would be wrong.
const SRC = new URL('../src/', import.meta.url).pathname;

/** file (from src/) -> the physical utilities it may keep, each for the reason in a comment beside it. */
const ALLOWED: Record<string, readonly string[]> = {
  // Centred with the physical -translate-x-1/2: start-1/2 would push them off centre in RTL.
  'components/dialog.tsx': ['left-1/2'],
  'components/zoom-stage.tsx': ['left-1/2'],
  'components/history/gallery-tile.tsx': ['left-1/2'],
};

const PHYSICAL =
  /^-?(?:(?:m|p|scroll-m|scroll-p)[lr]|left|right|rounded-(?:[lr]|[tb][lr])|border-[lr])-|^(?:text|float|clear)-(?:left|right)$|^(?:rounded|border)-[lr]$/;

/** The TypeScript of src/, tests left out. */
const typeScriptFiles = () => sourceFiles(SRC, /\.tsx?$/);

/** The utilities in a line's string literals, without variants ("sm:hover:ml-2" -> "ml-2") or "!". */
function utilitiesIn(line: string): string[] {
  return [...line.matchAll(/["'`]([^"'`\n]*)["'`]/g)].flatMap((m) =>
    m[1]!.split(/\s+/).map((t) => t.split(':').pop()!.replace(/^!/, '')),
  );
}

const physicalIn = (line: string) => utilitiesIn(line).filter((u) => PHYSICAL.test(u));

describe('logical CSS for right-to-left', () => {
  it('knows a physical utility from a logical one', () => {
    expect(
      physicalIn('className="ml-2 sm:pr-4 hover:-left-1 text-right rounded-l-md border-r float-left"'),
    ).toEqual(['ml-2', 'pr-4', '-left-1', 'text-right', 'rounded-l-md', 'border-r', 'float-left']);
    expect(
      physicalIn("cn('ms-2 pe-4 start-0 end-1 text-end rounded-s-md border-e float-start', 'px-2 mx-auto')"),
    ).toEqual([]);
    // Words in messages are not utilities.
    expect(physicalIn("`about ${s} left` + 'Right'")).toEqual([]);
  });

  it('finds no physical utility in src/ outside the allowed places', () => {
    const found: string[] = [];
    for (const file of typeScriptFiles()) {
      const name = relative(SRC, file);
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const u of physicalIn(line))
            if (!ALLOWED[name]?.includes(u)) found.push(`src/${name}:${i + 1} ${u}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('mirrors every icon that points a direction under dir="rtl"', () => {
    const DIRECTIONAL =
      /<(Chevron(?:s)?(?:Left|Right)|Arrow(?:Big)?(?:Left|Right)|LogOut|LogIn|Send|Undo2?|Redo2?)\b([^>]*)>/g;
    const unmirrored: string[] = [];
    for (const file of typeScriptFiles()) {
      for (const m of readFileSync(file, 'utf8').matchAll(DIRECTIONAL))
        if (!/rtl:-scale-x-100/.test(m[2]!)) unmirrored.push(`src/${relative(SRC, file)} <${m[1]}>`);
    }
    expect(unmirrored).toEqual([]);
  });
});
