import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file under `dir` whose name matches `names`, test files left out: the source that the tests of
 * the house rules over src/ read line by line (logical-css.test.ts, dark-variants.test.ts).
 */
export function sourceFiles(dir: string, names: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path, names);
    return names.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [path] : [];
  });
}
