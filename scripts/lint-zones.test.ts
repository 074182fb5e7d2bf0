import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.js are only worth something if they fire: without a resolver
// that knows .ts/.tsx, import-x resolved no path and every zone passed silently.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function zoneErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths')
    .map((m) => m.message);
}

describe('import boundaries', () => {
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

  it('refuses app code importing the test helpers of src/test, and lets tests use them', async () => {
    const code = "import { makeEntry } from '../../test/gallery-test-utils';\nexport const x = makeEntry;\n";
    expect((await zoneErrors('src/features/gallery/probe.ts', code)).join()).toMatch(
      /src\/test holds test helpers/,
    );
    expect(await zoneErrors('src/features/gallery/probe.test.ts', code)).toEqual([]);
  });
});
