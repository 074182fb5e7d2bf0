import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.js are only worth something if they fire: without a resolver
// that knows .ts/.tsx, import-x resolved no path and every zone passed silently.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

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
    const code = "import { listBoards } from '../model/boards/boards';\nexport const x = listBoards;\n";
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
});
