import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The dead-code check (knip, in `npm run lint`) is only worth something if it fails: this runs it, with
// the repository's own knip.config.ts, on a small project whose one entry (src/prerender.tsx) imports
// one of a module's exports. An export nobody imports, or only its own module uses, fails it; in the
// production run (`knip --production`) so does an export that only a test imports.

const root = fileURLToPath(new URL('..', import.meta.url));
const knip = join(root, 'node_modules', '.bin', 'knip');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(util: string, test?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'knip-check-'));
  dirs.push(dir);
  cpSync(join(root, 'knip.config.ts'), join(dir, 'knip.config.ts'));
  // With a test, Vitest is listed, so knip's Vitest plugin takes src/**/*.test.ts as the (non-production)
  // entries they are.
  const devDependencies = test === undefined ? {} : { vitest: '*' };
  const manifest = { name: 'probe', private: true, type: 'module', devDependencies };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler' } }),
  );
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  writeFileSync(
    join(dir, 'src', 'prerender.tsx'),
    "import { used } from './lib/util';\nconsole.log(used);\n",
  );
  writeFileSync(join(dir, 'src', 'lib', 'util.ts'), util);
  if (test !== undefined) writeFileSync(join(dir, 'src', 'lib', 'util.test.ts'), test);
  return dir;
}

function run(dir: string, ...flags: string[]) {
  const args = ['--no-progress', '--no-config-hints', ...flags];
  const result = spawnSync(knip, args, { cwd: dir, encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('knip, as npm run lint runs it', () => {
  it('runs in npm run lint, both the default run and the production run', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.lint).toMatch(/\bknip --no-progress(?! --production)/);
    expect(scripts.lint).toMatch(/\bknip --no-progress --production\b/);
  });

  it('passes a project where every export is imported', () => {
    const { status, out } = run(project('export const used = 1;\n'));
    expect(out).toBe('');
    expect(status).toBe(0);
  });

  it('fails on an export nobody imports, naming it', () => {
    const { status, out } = run(project('export const used = 1;\nexport const dead = 2;\n'));
    expect(status).toBe(1);
    expect(out).toMatch(/Unused exports \(1\)/);
    expect(out).toMatch(/^dead\s+src\/lib\/util\.ts/m);
  });

  it('fails on an export only its own module uses (the keyword is dead)', () => {
    const { status, out } = run(
      project('export const used = 1;\nexport const local = 2;\nconsole.log(local);\n'),
    );
    expect(status).toBe(1);
    expect(out).toMatch(/^local\s+src\/lib\/util\.ts/m);
  });

  it('fails on an exported type nobody imports', () => {
    const { status, out } = run(project('export const used = 1;\nexport type Dead = { a: 1 };\n'));
    expect(status).toBe(1);
    expect(out).toMatch(/Unused exported types \(1\)/);
  });

  describe('the production run', () => {
    const onlyTested = 'export const used = 1;\nexport const onlyTested = 2;\n';
    const test =
      "import { expect } from 'vitest';\nimport { onlyTested } from './util';\nexpect(onlyTested).toBe(2);\n";

    it('passes a project whose every export a program imports', () => {
      const { status, out } = run(project('export const used = 1;\n'), '--production');
      expect(out).toBe('');
      expect(status).toBe(0);
    });

    it('fails on an export only a test imports, naming it (the default run counts the test)', () => {
      const dir = project(onlyTested, test);
      expect(run(dir)).toEqual({ status: 0, out: '' });
      const { status, out } = run(dir, '--production');
      expect(status).toBe(1);
      expect(out).toMatch(/Unused exports \(1\)/);
      expect(out).toMatch(/^onlyTested\s+src\/lib\/util\.ts/m);
    });

    it('passes an export only a test imports when it is tagged @internal (exported for its unit test)', () => {
      const tagged = onlyTested.replace(
        'export const onlyTested',
        '/** @internal */\nexport const onlyTested',
      );
      const { status, out } = run(project(tagged, test), '--production');
      expect(out).toBe('');
      expect(status).toBe(0);
    });
  });
});
