import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);

// The import boundaries of eslint.config.js are only worth something if they fire: without a resolver
// that knows .ts/.tsx, import-x resolved no path and every zone passed silently. The probes below are
// text with a made-up path, which no tsconfig program holds: they are linted without types, and the
// type-aware rules are proven on real files further down.
const eslint = new ESLint({
  cwd: root.pathname,
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

async function ruleErrors(rule: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

const zoneErrors = (filePath: string, code: string) =>
  ruleErrors('import-x/no-restricted-paths', filePath, code);
const importErrors = (filePath: string, code: string) => ruleErrors('no-restricted-imports', filePath, code);

describe('import boundaries', () => {
  it('refuses forwardRef, deprecated under React 19', async () => {
    const errors = await importErrors(
      'src/components/probe.tsx',
      "import { forwardRef } from 'react';\nexport const x = forwardRef;\n",
    );
    expect(errors.join()).toMatch(/take `ref` as a prop/);
  });

  it('refuses a feature importing another feature', async () => {
    const errors = await zoneErrors(
      'src/features/quote/probe.ts',
      "import { CatalogPanel } from '../catalog/catalog-panel';\nexport const x = CatalogPanel;\n",
    );
    expect(errors.join()).toMatch(/A feature may not import another feature/);
  });

  it('lets a feature import its own modules, lib, api and components', async () => {
    const errors = await zoneErrors(
      'src/features/quote/probe.ts',
      [
        "import { QuoteView } from './quote-panel';",
        "import { formatCredits } from '../../lib/format';",
        "import { Button } from '../../components/button';",
        'export const x = [QuoteView, formatCredits, Button];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('refuses lib and api importing features', async () => {
    const code =
      "import { CatalogPanel } from '../features/catalog/catalog-panel';\nexport const x = CatalogPanel;\n";
    expect(await zoneErrors('src/lib/probe.ts', code)).toHaveLength(1);
    expect(await zoneErrors('src/api/probe.ts', code)).toHaveLength(1);
  });

  it('refuses the sandbox importing the studio', async () => {
    const errors = await zoneErrors(
      'sandbox/src/core/probe.ts',
      "import { formatCredits } from '../../../src/lib/format';\nexport const x = formatCredits;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('refuses the sandbox importing anything of src/, and lets it import the contract', async () => {
    const fromSrc = "import { API_ERRORS } from '../../../src/api/errors';\nexport const x = API_ERRORS;\n";
    expect(await zoneErrors('sandbox/src/http/probe.ts', fromSrc)).toHaveLength(1);
    const fromContract =
      "import { CATEGORIES } from '../../../contract/category';\nexport const x = CATEGORIES;\n";
    expect(await zoneErrors('sandbox/src/http/probe.ts', fromContract)).toEqual([]);
  });

  it('refuses the contract importing the studio or the sandbox', async () => {
    const code = "import { formatCredits } from '../src/lib/format';\nexport const x = formatCredits;\n";
    expect(await zoneErrors('contract/probe.ts', code)).toHaveLength(1);
  });

  it('refuses the domain layer importing a feature, a component or React', async () => {
    const feature =
      "import { CatalogPanel } from '../../features/catalog/catalog-panel';\nexport const x = CatalogPanel;\n";
    expect(await zoneErrors('src/model/history/probe.ts', feature)).toHaveLength(1);
    const component = "import { Button } from '../../components/button';\nexport const x = Button;\n";
    expect(await zoneErrors('src/model/history/probe.ts', component)).toHaveLength(1);
    const react = "import { useState } from 'react';\nexport const x = useState;\n";
    expect(await importErrors('src/model/history/probe.ts', react)).toHaveLength(1);
    const query = "import { useQuery } from '@tanstack/react-query';\nexport const x = useQuery;\n";
    expect(await importErrors('src/model/history/probe.ts', query)).toHaveLength(1);
  });

  it('refuses lib/ knowing the domain', async () => {
    const code = "import { listBoards } from '../model/compare/boards';\nexport const x = listBoards;\n";
    expect(await zoneErrors('src/lib/probe.ts', code)).toHaveLength(1);
  });

  it('refuses sandbox core importing http, media or a media or HTTP library', async () => {
    const http = "import { createApp } from '../http/app';\nexport const x = createApp;\n";
    expect(await zoneErrors('sandbox/src/core/probe.ts', http)).toHaveLength(1);
    const media = "import { renderMedia } from '../media/render';\nexport const x = renderMedia;\n";
    expect(await zoneErrors('sandbox/src/core/probe.ts', media)).toHaveLength(1);
    for (const lib of ['sharp', 'hono', '@ffmpeg-installer/ffmpeg']) {
      const code = `import lib from '${lib}';\nexport const x = lib;\n`;
      expect(await importErrors('sandbox/src/core/probe.ts', code)).toHaveLength(1);
    }
  });

  it('refuses sandbox http importing the command line', async () => {
    const code = "import { main } from '../cli';\nexport const x = main;\n";
    expect(await zoneErrors('sandbox/src/http/probe.ts', code)).toHaveLength(1);
  });

  it('refuses an import cycle', async () => {
    // The rule follows real files, so the pair is written for the test and removed after it.
    const dir = new URL(`../src/lib/cycle-probe-${process.pid}/`, import.meta.url);
    mkdirSync(dir);
    try {
      writeFileSync(new URL('a.ts', dir), "import { b } from './b';\nexport const a = () => b;\n");
      writeFileSync(new URL('b.ts', dir), "import { a } from './a';\nexport const b = () => a;\n");
      const [result] = await eslint.lintFiles([fileURLToPath(new URL('a.ts', dir))]);
      expect((result?.messages ?? []).some((m) => m.ruleId === 'import-x/no-cycle')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses app code importing the test helpers of src/test, and lets tests use them', async () => {
    const code = "import { makeEntry } from '../../test/gallery-test-utils';\nexport const x = makeEntry;\n";
    expect((await zoneErrors('src/features/gallery/probe.ts', code)).join()).toMatch(
      /src\/test holds test helpers/,
    );
    expect(await zoneErrors('src/features/gallery/probe.test.ts', code)).toEqual([]);
  });
  it('refuses a feature importing app/', async () => {
    const code = "import { Workspace } from '../../app/workspace';\nexport const x = Workspace;\n";
    expect((await zoneErrors('src/features/quote/probe.ts', code)).join()).toMatch(
      /Features do not import app/,
    );
  });

  it('lets the contract import zod and its own files, and nothing else', async () => {
    const own =
      "import { z } from 'zod/mini';\nimport { ParamDefSchema } from './param';\nexport const x = [z, ParamDefSchema];\n";
    expect(await importErrors('contract/probe.ts', own)).toEqual([]);
    for (const lib of ['idb', 'yjs', '@lingui/core']) {
      const code = `import lib from '${lib}';\nexport const x = lib;\n`;
      expect((await importErrors('contract/probe.ts', code)).join()).toMatch(/only zod/);
    }
  });

  it('refuses every UI package in the domain layer, not only React', async () => {
    const ui = ['react-dom/client', 'lucide-react', 'sonner', 'react-hook-form', '@hookform/resolvers/zod'];
    for (const lib of [
      ...ui,
      'react-dropzone',
      'react-zoom-pan-pinch',
      '@lingui/react',
      '@tanstack/react-virtual',
    ]) {
      const code = `import lib from '${lib}';\nexport const x = lib;\n`;
      expect(await importErrors('src/model/history/probe.ts', code), lib).toHaveLength(1);
    }
    const plain =
      "import { openDB } from 'idb';\nimport { t } from '@lingui/core/macro';\nexport const x = [openDB, t];\n";
    expect(await importErrors('src/model/history/probe.ts', plain)).toEqual([]);
  });

  it("lets studio tests read the sandbox's catalog only through its public entry", async () => {
    const entry = "import { models } from '../../sandbox/src/public-catalog';\nexport const x = models;\n";
    expect(await zoneErrors('src/test/probe.ts', entry)).toEqual([]);
    const deep =
      "import { models } from '../../sandbox/src/core/catalog/models';\nexport const x = models;\n";
    expect((await zoneErrors('src/test/probe.ts', deep)).join()).toMatch(/public-catalog\.ts/);
  });

  it('refuses the servers importing the studio, the sandbox or a dev tool; start.ts may start a sandbox', async () => {
    const app = 'server/team-space/probe.ts';
    const studio =
      "import { TeamSpace } from '../../src/model/team/team-space';\nexport const x = TeamSpace;\n";
    expect((await zoneErrors(app, studio)).join()).toMatch(/none of the studio's code/);
    const sandbox =
      "import { startSandbox } from '../../sandbox/src/server';\nexport const x = startSandbox;\n";
    expect((await zoneErrors(app, sandbox)).join()).toMatch(/Only server\/start\.ts/);
    for (const tool of ['../../scripts/chromium', '../../bench/results-file', '../../e2e/fixtures']) {
      const code = `import * as tool from '${tool}';\nexport const x = tool;\n`;
      expect((await zoneErrors(app, code)).join(), tool).toMatch(
        /import no dev tool, benchmark or test suite/,
      );
    }
    const allowed = [
      "import { MeSchema } from '../../contract/me';",
      "import { isLoopbackHost } from '../../node-shared/hosts';",
      "import { teamRoomOf } from './rooms';",
      "import { cutUpdate } from '../../src/lib/yjs-pieces';",
      'export const x = [MeSchema, isLoopbackHost, teamRoomOf, cutUpdate];',
    ].join('\n');
    expect(await zoneErrors(app, allowed)).toEqual([]);

    const start = "import { startSandbox } from '../sandbox/src/server';\nexport const x = startSandbox;\n";
    expect(await zoneErrors('server/start.ts', start)).toEqual([]);
    const deep = "import { Sandbox } from '../sandbox/src/core/sandbox';\nexport const x = Sandbox;\n";
    expect((await zoneErrors('server/start.ts', deep)).join()).toMatch(/sandbox\/src\/server\.ts/);

    // Tests start a real sandbox to check keys against, and play the studio's side of the team space.
    const test = 'server/team-space/probe.test.ts';
    expect(await zoneErrors(test, sandbox)).toEqual([]);
    const preload =
      "import { preloadRoom } from '../../src/model/team/team-preload';\nexport const x = preloadRoom;\n";
    expect(await zoneErrors(test, preload)).toEqual([]);
    const feature =
      "import { CatalogPanel } from '../../src/features/catalog/catalog-panel';\nexport const x = CatalogPanel;\n";
    expect(await zoneErrors(test, feature)).toHaveLength(1);
  });

  it('refuses node-shared importing the sandbox or the servers, and the studio importing node-shared', async () => {
    for (const from of ['../sandbox/src/server', '../server/proxy', '../contract/me']) {
      const code = `import * as m from '${from}';\nexport const x = m;\n`;
      expect(await zoneErrors('node-shared/probe.ts', code), from).toHaveLength(1);
    }
    const code =
      "import { isLoopbackHost } from '../../node-shared/hosts';\nexport const x = isLoopbackHost;\n";
    expect((await zoneErrors('src/lib/probe.ts', code)).join()).toMatch(
      /neither the servers nor node-shared/,
    );
  });

  it('refuses anything but a benchmark importing bench/, and a benchmark reaching into the sandbox', async () => {
    for (const [filePath, up] of [
      ['src/model/probe.ts', '../../'],
      ['server/probe.ts', '../'],
      ['sandbox/src/probe.ts', '../../'],
      ['e2e/probe.ts', '../'],
    ] as const) {
      const code = `import { record } from '${up}bench/results-file';\nexport const x = record;\n`;
      expect((await zoneErrors(filePath, code)).join(), filePath).toMatch(/Only benchmarks import bench/);
    }
    const started = "import { startSandbox } from '../sandbox/src/server';\nexport const x = startSandbox;\n";
    expect(await zoneErrors('bench/probe.ts', started)).toEqual([]);
    const core = "import { Sandbox } from '../sandbox/src/core/sandbox';\nexport const x = Sandbox;\n";
    expect((await zoneErrors('bench/probe.ts', core)).join()).toMatch(/A benchmark starts the sandbox/);
  });

  it('refuses e2e/ being imported from outside, and e2e/ reaching into the studio, sandbox or servers', async () => {
    const fixtures = (up: string) => `import { test } from '${up}e2e/fixtures';\nexport const x = test;\n`;
    expect((await zoneErrors('src/lib/probe.ts', fixtures('../../'))).join()).toMatch(
      /Only e2e\/ imports e2e/,
    );
    expect((await zoneErrors('server/probe.ts', fixtures('../'))).join()).toMatch(/Only e2e\/ imports e2e/);
    expect((await zoneErrors('bench/probe.ts', fixtures('../'))).join()).toMatch(/share only e2e\/pop-model/);
    const pop = "import { POP } from '../e2e/pop-model';\nexport const x = POP;\n";
    expect(await zoneErrors('bench/probe.ts', pop)).toEqual([]);

    const e2e = 'e2e/probe.spec.ts';
    const store =
      "import { HistoryStore } from '../src/model/history/history-store';\nexport const x = HistoryStore;\n";
    expect((await zoneErrors(e2e, store)).join()).toMatch(/drives the studio through the page/);
    const sandbox = "import { startSandbox } from '../sandbox/src/server';\nexport const x = startSandbox;\n";
    expect((await zoneErrors(e2e, sandbox)).join()).toMatch(/over HTTP/);
    const authority =
      "import { reviewUpdate } from '../server/team-space/authority';\nexport const x = reviewUpdate;\n";
    expect(await zoneErrors(e2e, authority)).toHaveLength(1);
    const allowed = [
      "import { readRecipe } from '../src/model/recipes/file-recipe';",
      "import { blindOrder } from '../src/features/compare/blind-order';",
      "import { routeOf } from '../server/team-space/messages';",
      'export const x = [readRecipe, blindOrder, routeOf];',
    ].join('\n');
    expect(await zoneErrors(e2e, allowed)).toEqual([]);
  });

  it('refuses a file name that is not kebab-case', async () => {
    const code = 'export const x = 1;\n';
    const errors = (filePath: string) => ruleErrors('local/kebab-case-file-names', filePath, code);
    expect(await errors('src/lib/zipSink.ts')).toHaveLength(1);
    expect(await errors('src/lib/zip_sink.test.ts')).toHaveLength(1);
    expect(await errors('src/components/Button.tsx')).toHaveLength(1);
    expect(await errors('src/lib/zip-sink.test.ts')).toEqual([]);
    expect(await errors('src/locales.d.ts')).toEqual([]);
  });
});

describe('type-aware rules and the two programs', () => {
  // Real files in src/ (the project service reads the disk), written for the test and removed after it.
  const dir = new URL(`src/lib/type-probe-${process.pid}/`, root);

  it('refuses a promise left floating and a promise handed where a plain callback is expected', async () => {
    mkdirSync(dir);
    try {
      const file = fileURLToPath(new URL('probe.ts', dir));
      writeFileSync(
        file,
        [
          'export async function save(): Promise<void> {}',
          'export function floating() {',
          '  save();',
          '}',
          "export const misused = (el: HTMLElement) => el.addEventListener('click', async () => save());",
          'export function handled() {',
          '  save().catch(() => undefined);',
          '}',
          '',
        ].join('\n'),
      );
      const [result] = await new ESLint({ cwd: root.pathname }).lintFiles([file]);
      const lines = (rule: string) =>
        (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.line);
      expect(lines('@typescript-eslint/no-floating-promises')).toEqual([3]);
      expect(lines('@typescript-eslint/no-misused-promises')).toEqual([5]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails the browser program's typecheck on Node's process or Buffer in src/, and not Node's", () => {
    mkdirSync(dir);
    try {
      writeFileSync(
        new URL('probe.ts', dir),
        "export const home = process.env.HOME;\nexport const bytes = Buffer.from('x');\n",
      );
      const typecheck = (base: string) => {
        // A program of this one file with everything else of the named tsconfig (lib, types, options).
        const config = new URL(`tsconfig.${base}.json`, dir);
        writeFileSync(
          config,
          JSON.stringify({ extends: `../../../tsconfig.${base}.json`, files: ['probe.ts'], include: [] }),
        );
        const tsc = fileURLToPath(new URL('node_modules/typescript/bin/tsc', root));
        const run = spawnSync(process.execPath, [tsc, '-p', fileURLToPath(config)], { encoding: 'utf8' });
        return run.stdout;
      };
      const browser = typecheck('browser');
      expect(browser).toMatch(/Cannot find name 'process'/);
      expect(browser).toMatch(/Cannot find name 'Buffer'/);
      expect(typecheck('node')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
