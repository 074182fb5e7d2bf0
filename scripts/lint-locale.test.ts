import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rule of eslint.config.js that keeps every format in the studio's locale (src/lib/format.ts):
// proven to fire, since a selector that matches nothing passes silently.
// The probes are text with a made-up path, which no tsconfig program holds: linted without types (the
// type-aware rules are proven in lint-zones.test.ts).
const eslint = new ESLint({
  cwd: new URL('..', import.meta.url).pathname,
  overrideConfig: {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      // Type-aware too (useTsTypes); the untranslated-string rule is proven on the real sources by lint.
      'lingui/no-unlocalized-strings': 'off',
    },
  },
});

async function localeErrors(code: string, filePath = 'src/features/usage/probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('no locale written in the code', () => {
  it('refuses a literal locale passed to an Intl constructor, with or without new', async () => {
    for (const code of [
      "export const f = new Intl.NumberFormat('en-US');",
      'export const f = new Intl.DateTimeFormat(`en`, { month: "short" });',
      "export const f = new Intl.RelativeTimeFormat(['en'], { numeric: 'auto' });",
      "export const f = Intl.ListFormat('de', { type: 'unit' });",
    ]) {
      const errors = await localeErrors(code);
      expect(errors, code).toHaveLength(1);
      expect(errors[0]).toMatch(/A locale written in the code/);
    }
  });

  it('refuses a literal locale passed to toLocaleString, toLocaleDateString, toLocaleTimeString', async () => {
    for (const method of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
      const errors = await localeErrors(`export const s = new Date().${method}('en-US', {});`);
      expect(errors, method).toEqual([
        'A locale written in the code: format through src/lib/format.ts, in the studio locale.',
      ]);
    }
  });

  it('refuses no locale (or undefined), which follows the browser and not the studio', async () => {
    for (const code of [
      'export const s = (5000).toLocaleString();',
      'export const s = new Date().toLocaleDateString(undefined, { weekday: "long" });',
      'export const f = new Intl.NumberFormat();',
      "export const f = new Intl.DateTimeFormat(undefined, { hour: 'numeric' });",
    ]) {
      expect(await localeErrors(code), code).toHaveLength(1);
    }
  });

  it("lets a locale held in a variable pass (format.ts's own formatters), and case mapping", async () => {
    const code = [
      'export const f = (locale: string) => new Intl.NumberFormat(locale);',
      'export const g = (locale: string) => new Date().toLocaleDateString(locale);',
      'export const h = (s: string) => s.toLocaleLowerCase();',
    ].join('\n');
    expect(await localeErrors(code)).toEqual([]);
  });

  it('leaves tests free to build expected strings in a set locale', async () => {
    const code = "export const f = new Intl.NumberFormat('de-DE');";
    expect(await localeErrors(code, 'src/lib/probe.test.ts')).toEqual([]);
  });
});
