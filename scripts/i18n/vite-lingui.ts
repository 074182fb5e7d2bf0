import { transformAsync, types as t, type PluginObj } from '@babel/core';
import linguiMacro from '@lingui/babel-plugin-lingui-macro';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { lingui } from '@lingui/vite-plugin';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

// Lingui in the Vite build (docs/i18n.md).
//
// Messages are written with Lingui's macros (`t`, `msg`, `plural` from @lingui/core/macro; `Trans`,
// `useLingui` from @lingui/react/macro). The macros are compiled by Lingui's own Babel plugin, run here
// on the files that import them only (Vite 8's React plugin has no Babel pass of its own, and Lingui's
// native transform needs Node 22).
//
// English is the source language, and its messages stay in the code: after the macro, each message's
// English text is compiled to Lingui's run-time form at build time (`precompileMessages`), so the
// studio in English loads no catalog and no message compiler, and another language's catalog (loaded
// on demand, compiled by @lingui/vite-plugin from its .po file) falls back to that text for a message
// it does not have.

const MACRO_IMPORT = /from\s+['"]@lingui\/(?:core|react)\/macro['"]/;

/** The studio's <Trans>, which never reads a value's text for tags (src/lib/i18n/safe-trans.tsx). */
export const SAFE_TRANS = fileURLToPath(new URL('../../src/lib/i18n/safe-trans.tsx', import.meta.url));

/**
 * Replaces the English `message` a macro left beside a message's `id` with its compiled form, and points
 * the macros' <Trans> at the studio's own.
 */
function precompileMessages(): PluginObj {
  const compiled = (value: string) => t.valueToNode(compileMessage(value));
  return {
    name: 'media-studio:precompile-messages',
    visitor: {
      ImportDeclaration(path) {
        const { node } = path;
        if (node.source.value !== '@lingui/react') return;
        const imports = (name: string) =>
          node.specifiers.some((s) => t.isImportSpecifier(s) && t.isIdentifier(s.imported, { name }));
        if (!imports('Trans')) return;
        if (node.specifiers.length === 1) {
          node.source = t.stringLiteral(SAFE_TRANS);
          return;
        }
        const trans = node.specifiers.filter(
          (s) => t.isImportSpecifier(s) && t.isIdentifier(s.imported, { name: 'Trans' }),
        );
        node.specifiers = node.specifiers.filter((s) => !trans.includes(s));
        path.insertAfter(t.importDeclaration(trans, t.stringLiteral(SAFE_TRANS)));
      },
      // t`…`, msg`…`, defineMessage, plural(): `{ id: "…", message: "…", values }`.
      ObjectExpression(path) {
        const props = path.node.properties;
        const has = (name: string) =>
          props.some((p) => t.isObjectProperty(p) && t.isIdentifier(p.key, { name }));
        if (!has('id')) return;
        for (const p of props) {
          if (
            t.isObjectProperty(p) &&
            t.isIdentifier(p.key, { name: 'message' }) &&
            t.isStringLiteral(p.value)
          )
            p.value = compiled(p.value.value);
        }
      },
      // <Trans>…</Trans>: `<Trans id="…" message="…" values={…} components={…} />`.
      JSXOpeningElement(path) {
        const attrs = path.node.attributes;
        const hasId = attrs.some((a) => t.isJSXAttribute(a) && t.isJSXIdentifier(a.name, { name: 'id' }));
        if (!hasId) return;
        for (const a of attrs) {
          if (
            t.isJSXAttribute(a) &&
            t.isJSXIdentifier(a.name, { name: 'message' }) &&
            t.isStringLiteral(a.value)
          )
            a.value = t.jsxExpressionContainer(compiled(a.value.value));
        }
      },
    },
  };
}

/** Compiles Lingui's macros in one module (TypeScript and JSX kept for Vite's own transform). */
export async function transformMacros(code: string, filename: string) {
  const result = await transformAsync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceMaps: true,
    parserOpts: { plugins: ['typescript', 'jsx'] },
    // The English text is kept (to be compiled), in every mode.
    plugins: [[linguiMacro, { stripMessageField: false }], precompileMessages],
  });
  return result?.code == null ? null : { code: result.code, map: result.map };
}

function linguiMacros(): Plugin {
  return {
    name: 'media-studio:lingui-macros',
    enforce: 'pre',
    async transform(code, id) {
      const file = id.split('?')[0]!;
      if (!/\.[jt]sx?$/.test(file) || file.includes('/node_modules/') || !MACRO_IMPORT.test(code))
        return null;
      return transformMacros(code, file);
    },
  };
}

/** The plugins the studio's Vite config (and its prerender server) use. */
export const linguiPlugins = (): Plugin[] => [linguiMacros(), ...lingui()];
