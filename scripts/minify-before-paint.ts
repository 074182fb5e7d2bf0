import { minifySync } from 'vite';

// public/before-paint.js draws the theme and the language on <html> before the first paint
// (docs/i18n.md). The build inlines it into index.html (scripts/first-paint.ts, its hash in the
// Content-Security-Policy), minified with the minifier Vite uses for the studio's own code: the source
// stays readable, the first load carries only the code (docs/i18n.md "Measured").

const BEFORE_PAINT = 'before-paint.js';

/** A classic script minified: its top-level names kept, since they are globals another script may see. */
export function minifyClassicScript(code: string, fileName = BEFORE_PAINT): string {
  const result = minifySync(fileName, code, { module: false, compress: true, mangle: { toplevel: false } });
  if (result.errors.length > 0)
    throw new Error(`${fileName} does not minify: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.code;
}
