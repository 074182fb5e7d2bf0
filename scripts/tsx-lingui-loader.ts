import { register, type LoadHook } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as ViteLinguiModule from './i18n/vite-lingui';

type ViteLingui = typeof ViteLinguiModule;

// Lingui's macros in Node, for programs that tsx runs and that import the studio's own model code (the
// team bench's headless members: src/model/team/*, whose messages are `msg`/`t`/`plural` from
// @lingui/core/macro). The macros are not code of their own: the Vite build compiles them away with the
// project's Babel setup (scripts/i18n/vite-lingui.ts), and tsx alone leaves the imports in place, so Node
// failed on `'@lingui/core/macro' does not provide an export named 'msg'`.
//
// `registerLinguiMacros()` adds a module hook (node:module `register`, run in Node's loader thread) after
// tsx's own: a module of ours that imports a macro is first compiled by tsx (TypeScript to JavaScript),
// then its macros by `transformMacros`, the same function and options as the Vite build. Only files
// outside node_modules that import a macro are touched; anything else passes through unchanged.
// Call it before the first import that reaches such a module (a dynamic import).

const MACRO_IMPORT = /from\s*['"]@lingui\/core\/macro['"]/;
const REACT_MACRO_IMPORT = /from\s*['"]@lingui\/react\/macro['"]/;

/** The hook itself (loaded by `register` in the loader thread, through tsx's hooks). */
export const load: LoadHook = async (url, context, nextLoad) => {
  const loaded = await nextLoad(url, context);
  if (!url.startsWith('file:') || url.includes('/node_modules/') || loaded.source == null) return loaded;
  const code = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
  // <Trans> in JSX is compiled away by tsx before this hook sees it: a component is not for Node.
  if (REACT_MACRO_IMPORT.test(code))
    throw new Error(`${url}: @lingui/react/macro in Node (only the Vite build compiles JSX macros)`);
  if (!MACRO_IMPORT.test(code)) return loaded;
  // By its file's URL, extension and all: on Node 24 this hook's own module is loaded by Node's type
  // stripping, not tsx, and Node resolves no extension-less path.
  const { transformMacros } = (await import(
    new URL('./i18n/vite-lingui.ts', import.meta.url).href
  )) as ViteLingui;
  const compiled = await transformMacros(code, fileURLToPath(url));
  if (!compiled) throw new Error(`${url}: Lingui's macros could not be compiled`);
  return { ...loaded, source: compiled.code };
};

let registered = false;

/** Lingui's macros compiled in every module loaded from now on in this process (once per process). */
export function registerLinguiMacros(): void {
  if (registered) return;
  registered = true;
  register('./tsx-lingui-loader.ts', import.meta.url);
}
