import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { minifySync, type Plugin } from 'vite';

// public/before-paint.js draws the theme and the language on <html> before the first paint
// (docs/i18n.md). It is a classic script, blocking on purpose, and a file of its own: the
// Content-Security-Policy allows no inline script. Vite copies public/ as it is, comments and all, so
// the build minifies the copy with the minifier it uses for the studio's own code: the source stays
// readable, the first load carries only the code (docs/i18n.md "Measured").

const BEFORE_PAINT = 'before-paint.js';

/** A classic script minified: its top-level names kept, since they are globals another script may see. */
export function minifyClassicScript(code: string, fileName = BEFORE_PAINT): string {
  const result = minifySync(fileName, code, { module: false, compress: true, mangle: { toplevel: false } });
  if (result.errors.length > 0)
    throw new Error(`${fileName} does not minify: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.code;
}

/** Minifies dist/before-paint.js once the build has copied it from public/. */
export function minifyBeforePaint(): Plugin {
  let file: string;
  return {
    name: 'media-studio:minify-before-paint',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      file = resolve(config.root, config.build.outDir, BEFORE_PAINT);
    },
    // Before the offline shell's worker is written (vite.config.ts), so its precache list has the
    // revision of the file as served.
    closeBundle: {
      sequential: true,
      handler() {
        writeFileSync(file, minifyClassicScript(readFileSync(file, 'utf8')));
      },
    },
  };
}
