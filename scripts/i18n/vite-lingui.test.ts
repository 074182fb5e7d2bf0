import { describe, expect, it } from 'vitest';
import { pseudoMessage } from './pseudo';
import { SAFE_TRANS, transformMacros } from './vite-lingui';

describe('the build’s message transform', () => {
  it('compiles a t`` message’s English into the code, beside its id, and leaves no macro import', async () => {
    const out = await transformMacros(
      "import { t } from '@lingui/core/macro';\nexport const f = (name: string): string => t`Hello ${name}`;",
      'x.ts',
    );
    expect(out!.code).not.toContain('@lingui/core/macro');
    expect(out!.code).toMatch(/id: "[^"]+"/);
    expect(out!.code.replace(/\s+/g, ' ')).toContain('message: ["Hello ", ["name"]]');
  });

  it('compiles a <Trans> message, its tags and plural too, keeping TypeScript for the next step', async () => {
    const out = await transformMacros(
      [
        "import { Plural, Trans } from '@lingui/react/macro';",
        'export const A = ({ n }: { n: number }) => (',
        '  <p><Trans>Read <b>this</b></Trans><Plural value={n} one="# task" other="# tasks" /></p>',
        ');',
      ].join('\n'),
      'x.tsx',
    );
    const code = out!.code.replace(/\s+/g, ' ');
    expect(code).toContain('message: ["Read <0>this</0>"]');
    expect(code).toMatch(
      /message: \[\["n", "plural", \{ offset: undefined, one: \["#", " task"\], other: \["#", " tasks"\] \}\]\]/,
    );
    expect(code).toContain('{ n }: { n: number; }');
  });

  it("points the macros' <Trans> at the studio's own, which reads no value for tags", async () => {
    const out = await transformMacros(
      "import { Trans } from '@lingui/react/macro';\nexport const A = ({ who }: { who: string }) => <Trans>Shared by {who}</Trans>;",
      'x.tsx',
    );
    expect(out!.code).toContain(`from "${SAFE_TRANS}"`);
    expect(out!.code).not.toMatch(/import \{[^}]*Trans[^}]*\} from "@lingui\/react"/);
  });
});

describe('the pseudo-locale', () => {
  it('accents and lengthens the words by 40 %, and keeps placeholders, plural forms and tags', () => {
    const message = 'Delete {name}? {count, plural, one {# task <0>held</0>} other {# tasks}}';
    const pseudo = pseudoMessage(message);
    expect(pseudo).toContain('{name}');
    expect(pseudo).toMatch(/\{count, plural, one \{#[^{}]*<0>[^{}]*<\/0>[^{}]*\} other \{#[^{}]*\}\}/);
    expect(pseudo).not.toMatch(/Delete|tasks/);
    const text = (s: string) => s.replace(/\{[^{}]*\}|[{}#]|<\/?\d>/g, '').length;
    expect(pseudoMessage('Remember this key on this device').length).toBeGreaterThanOrEqual(
      Math.floor('Remember this key on this device'.length * 1.4),
    );
    expect(text(pseudo)).toBeGreaterThan(text(message));
  });

  it('quotes braces that are text, so the message still parses', () => {
    expect(pseudoMessage("Use '{a|b}' to try both")).toContain("'{'");
  });
});
