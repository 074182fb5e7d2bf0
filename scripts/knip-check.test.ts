import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The dead-code check (knip, in `npm run lint`) is only worth something if it fails: this runs it, with
// the repository's own knip.config.ts, on a small project whose one entry (src/prerender.tsx) imports
// one of a module's exports. An export nobody imports, or only its own module uses, fails it.

const root = fileURLToPath(new URL('..', import.meta.url));
const knip = join(root, 'node_modules', '.bin', 'knip');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(util: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'knip-check-'));
  dirs.push(dir);
  cpSync(join(root, 'knip.config.ts'), join(dir, 'knip.config.ts'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
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
  return dir;
}

function run(dir: string) {
  const result = spawnSync(knip, ['--no-progress', '--no-config-hints'], { cwd: dir, encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('knip, as npm run lint runs it', () => {
  it('is part of npm run lint', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.lint).toMatch(/\bknip\b/);
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
});
