import { readdirSync } from 'node:fs';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import lingui from 'eslint-plugin-lingui';

// Every folder under src/features is a feature; the boundary rule below covers new ones automatically.
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// The Intl constructors that take a locale, and the toLocale*String methods of numbers and dates.
const INTL = `callee.object.name='Intl'][callee.property.name=/^(NumberFormat|DateTimeFormat|RelativeTimeFormat|ListFormat|PluralRules|Collator|Segmenter|DisplayNames|DurationFormat)$/`;
const TO_LOCALE = `callee.property.name=/^toLocale(Date|Time)?String$/`;
const FIXED_LOCALE = `arguments.0.type=/^(Literal|TemplateLiteral|ArrayExpression)$/`;
const LOCALE_RULES = [
  ...['NewExpression', 'CallExpression'].flatMap((node) => [
    {
      selector: `${node}[${INTL}][${FIXED_LOCALE}]`,
      message: 'A locale written in the code: format through src/lib/format.ts, in the studio locale.',
    },
    {
      selector: `${node}[${INTL}]:matches([arguments.length=0], [arguments.0.type='Identifier'][arguments.0.name='undefined'])`,
      message: 'No locale follows the browser, not the studio: format through src/lib/format.ts.',
    },
  ]),
  {
    selector: `CallExpression[${TO_LOCALE}][${FIXED_LOCALE}]`,
    message: 'A locale written in the code: format through src/lib/format.ts, in the studio locale.',
  },
  {
    selector: `CallExpression[${TO_LOCALE}]:matches([arguments.length=0], [arguments.0.type='Identifier'][arguments.0.name='undefined'])`,
    message: 'toLocale*String without a locale follows the browser, not the studio: use src/lib/format.ts.',
  },
];

// File names are kebab-case (docs/ARCHITECTURE.md): every dot-separated part of the name, before and
// after the extension ('zip-sink.test.ts', 'locales.d.ts'). No installed plugin has a file-name rule.
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const local = {
  rules: {
    'kebab-case-file-names': {
      meta: { type: 'suggestion', schema: [] },
      create(context) {
        const name = context.filename.split(/[\\/]/).pop() ?? '';
        if (name.startsWith('<') || name.split('.').every((part) => KEBAB.test(part))) return {};
        return {
          Program(node) {
            context.report({
              node,
              message: `File name "${name}" is not kebab-case (words-joined-by-hyphens).`,
            });
          },
        };
      },
    },
  },
};

export default defineConfig(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'bench/results.json'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { local },
    rules: { 'local/kebab-case-file-names': 'error' },
  },
  {
    // Type-aware rules: a promise nobody awaits or handles loses its failure silently, and a promise
    // handed where a plain function is expected (an event handler) too. Each file is checked with its
    // program of tsconfig.json: the browser's or Node's (docs/development.md).
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    // Import paths carry no extension: without this the plugin resolves nothing and every zone passes.
    settings: {
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      // no-cycle parses the modules it follows: with the TypeScript parser, or it sees no imports at all.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The layers of docs/ARCHITECTURE.md: features never reach into each other; the sandbox imports only
      // the contract and node-shared/, the servers neither the studio nor the sandbox; bench/ and e2e/ are
      // leaves.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...FEATURES.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'A feature may not import another feature; compose them in src/app.',
            })),
            {
              target: './src/features',
              from: './src/app',
              message: 'Features do not import app/: app/ composes them and passes what they need as props.',
            },
            // The layers (docs/ARCHITECTURE.md): contract <- api <- model <- components/features <- app.
            {
              target: './contract',
              from: [
                './src',
                './sandbox',
                './server',
                './node-shared',
                './e2e',
                './e2e-browsers',
                './scripts',
                './bench',
              ],
              message:
                'The contract imports nothing else of ours: the studio, the sandbox and the servers build on it.',
            },
            {
              target: './src/lib',
              from: [
                './src/features',
                './src/app',
                './src/components',
                './src/model',
                './src/api',
                './contract',
              ],
              message: 'lib/ holds helpers with no domain knowledge; domain code lives in src/model.',
            },
            {
              target: './src/api',
              from: ['./src/features', './src/app', './src/components', './src/model'],
              message: 'api/ wraps the contract; it knows no model, component or feature.',
            },
            {
              target: './src/model',
              from: ['./src/features', './src/app', './src/components'],
              message: 'The domain layer imports only the contract, api/ and lib/.',
            },
            {
              target: './src/components',
              from: ['./src/features', './src/app'],
              message: 'Shared components know no feature.',
            },
            {
              // Test helpers (fakes, fixtures, render wrappers) live in src/test: only tests may use them.
              target: [
                './src/{api,app,components,features,lib,model}/**/!(*.test).{ts,tsx}',
                './src/main.tsx',
              ],
              from: './src/test',
              message: 'src/test holds test helpers; app code does not import them.',
            },
            {
              target: './sandbox',
              from: ['./src', './server', './scripts', './bench', './e2e', './e2e-browsers'],
              message:
                'The sandbox imports only the contract and node-shared/, never the studio, its servers or the tools.',
            },
            {
              // What the sandbox and the servers both need: it reaches into neither, so neither reaches
              // into the other through it.
              target: './node-shared',
              from: [
                './src',
                './contract',
                './sandbox',
                './server',
                './scripts',
                './bench',
                './e2e',
                './e2e-browsers',
              ],
              message: 'node-shared/ imports nothing of ours: the sandbox and the servers both build on it.',
            },
            // The servers (server/) run in production beside the studio: the contract, node-shared/ and
            // their own files.
            {
              target: './server',
              from: ['./scripts', './bench', './e2e', './e2e-browsers'],
              message: 'The servers run in production: they import no dev tool, benchmark or test suite.',
            },
            {
              // Cutting a Yjs update into pieces is run by the studio (its local copy) and the team space
              // (a room's pieces) alike: src/lib/yjs-pieces.ts imports nothing of ours (lib/'s zone).
              target: './server/**/!(*.test).ts',
              from: './src',
              except: ['./lib/yjs-pieces.ts'],
              message: "The servers import none of the studio's code (but src/lib/yjs-pieces.ts).",
            },
            {
              // The tests play the studio's side of the team space with its own code.
              target: './server/**/*.test.ts',
              from: './src',
              except: ['./lib/yjs-pieces.ts', './model/team'],
              message:
                "Server tests use only src/model/team/ (and src/lib/yjs-pieces.ts) of the studio's code.",
            },
            {
              target: './server/**/!(start|*.test).ts',
              from: './sandbox',
              message:
                'Only server/start.ts (npm start) starts the sandbox; the servers reach an API over HTTP alone.',
            },
            {
              // npm start, and the tests that need a real API to check keys against.
              target: ['./server/start.ts', './server/**/*.test.ts'],
              from: './sandbox',
              except: ['./src/server.ts'],
              message: 'A sandbox is started through sandbox/src/server.ts; nothing else of it is imported.',
            },
            {
              // The studio runs in the browser: none of the Node programs beside it.
              target: [
                './src/{api,app,components,features,lib,model}/**/!(*.test).{ts,tsx}',
                './src/main.tsx',
              ],
              from: ['./server', './node-shared'],
              message:
                "The studio imports neither the servers nor node-shared/ (the browser's code is src/).",
            },
            // bench/ measures: nothing imports it, and it starts the sandbox rather than reaching into it.
            {
              target: [
                './src',
                './contract',
                './sandbox',
                './server',
                './node-shared',
                './scripts',
                './e2e',
                './e2e-browsers',
              ],
              from: './bench',
              message: 'Only benchmarks import bench/.',
            },
            {
              target: './bench',
              from: './sandbox',
              except: ['./src/server.ts', './bench'],
              message:
                "A benchmark starts the sandbox (sandbox/src/server.ts) or runs the sandbox's bench, nothing else of it.",
            },
            // e2e/ drives the built studio and the sandbox from outside: nothing imports it (but the
            // benches, its Pop model's facts), and it imports of the studio only two pure modules whose
            // answers it checks, of the servers only the team space's framing, of the sandbox nothing.
            {
              target: [
                './src',
                './contract',
                './sandbox',
                './server',
                './node-shared',
                './scripts',
                './e2e-browsers',
              ],
              from: './e2e',
              message: 'Only e2e/ imports e2e/.',
            },
            {
              target: './bench',
              from: './e2e',
              except: ['./pop-model.ts'],
              message:
                'Benchmarks share only e2e/pop-model.ts (the model their histories are made of) with e2e/.',
            },
            {
              target: './e2e',
              from: './src',
              except: ['./model/recipes/file-recipe.ts', './features/compare/blind-order.ts'],
              message:
                'e2e/ drives the studio through the page; of its code only file-recipe.ts and blind-order.ts.',
            },
            {
              target: './e2e',
              from: './sandbox',
              message: 'e2e/ reaches the sandbox over HTTP (e2e/fixtures.ts), not by importing it.',
            },
            {
              target: './e2e',
              from: './server',
              except: ['./team-space/messages.ts'],
              message:
                "e2e/ reaches the servers over HTTP and WebSocket; of their code only the team space's framing.",
            },
            {
              // Studio tests use the sandbox's real catalog, and the sandbox in their own process (on
              // their own clock), through the two modules the sandbox offers for them.
              target: './src',
              from: './sandbox',
              except: ['./src/public-catalog.ts', './src/in-process.ts'],
              message:
                'The studio reaches the sandbox only through sandbox/src/public-catalog.ts and, in tests, sandbox/src/in-process.ts.',
            },
            {
              target: './sandbox/src/core',
              from: [
                './sandbox/src/http',
                './sandbox/src/media',
                './sandbox/src/cli.ts',
                './sandbox/src/server.ts',
              ],
              message: 'Sandbox core is plain logic: media work is injected, HTTP wraps it.',
            },
            {
              target: './sandbox/src/http',
              from: ['./sandbox/src/cli.ts'],
              message: 'HTTP must not import the command line.',
            },
          ],
        },
      ],
    },
  },
  {
    // React 19 passes `ref` as an ordinary prop: forwardRef is deprecated. The model's block
    // below replaces this rule for model files, which import no React at all.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              importNames: ['forwardRef'],
              message: 'React 19: take `ref` as a prop instead of forwardRef.',
            },
          ],
        },
      ],
    },
  },
  {
    // No locale written in the code: numbers and dates are
    // formatted in the studio's locale by lib/format.ts. A literal locale ignores the user's language; no
    // locale at all (or undefined) follows the browser's, not the studio's.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...LOCALE_RULES],
    },
  },
  {
    // Every UI package of package.json: the domain layer runs without a page (docs/ARCHITECTURE.md).
    files: ['src/model/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'react',
                'react/*',
                'react-*',
                'react-dom',
                'react-dom/*',
                '@tanstack/react-*',
                'radix-ui',
                'radix-ui/*',
                '@radix-ui/*',
                'lucide-react',
                'sonner',
                'react-hook-form',
                '@hookform/*',
                'react-dropzone',
                'react-zoom-pan-pinch',
                '@lingui/react',
                '@lingui/react/*',
                '@testing-library/*',
              ],
              message: 'The domain layer has no UI: no React, and no package built on it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is parsed by the studio and the sandbox alike: zod and its own files, nothing else.
    files: ['contract/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\./)',
              message: 'The contract imports only zod and its own files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['sandbox/src/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['sharp', '@ffmpeg-installer/*', 'hono', 'hono/*', '@hono/*'],
              message:
                'Sandbox core imports no media or HTTP library: media work is injected from sandbox/src/media.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'sandbox/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // React code only: Playwright fixtures and vitest harnesses have functions named use*.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Messages (docs/i18n.md): `t` only where it runs when the text is shown, whole sentences, named
    // placeholders.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/test/**', 'src/test-setup.ts'],
    ...lingui.configs['flat/recommended'],
  },
  {
    // Every text of the studio goes through the catalogs (docs/i18n.md): a string shown to a person is a
    // message. All of src/ but the tests and their helpers. What is allowed without one is below, each
    // with why: text that no language translates (ids, CSS, URLs, MIME types, code, names of formats).
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      'src/test/**',
      'src/test-setup.ts',
      // "Copy request": the code a person pastes into a terminal or a script (curl, fetch), not words.
      'src/api/request-code.ts',
      // The languages in the language choice, each named in itself ("Deutsch", "Français").
      'src/lib/i18n/languages.ts',
      // TEMPORARY: the queue's pause reasons ('taken back') are being translated by the queue's owner
      // in their own change; take this line out with it.
      'src/model/queue/queue.ts',
    ],
    plugins: { lingui },
    rules: {
      'lingui/no-unlocalized-strings': [
        'error',
        {
          // A string whose contextual type is a union of string literals is an id of the code ('idle' |
          // 'copied', a shortcut's name, an HTTP method), never a text: the type checker says so.
          useTsTypes: true,
          ignore: [
            // Not words: numbers, punctuation, symbols alone.
            '^[^A-Za-z]*$',
            // URLs, and the service's paths ('/tasks/', api-notes).
            '^(https?:)?//',
            '^/[a-z0-9/_{}-]*$',
            // Ids and keys: one lower-case word or camelCase ('connecting', 'keydown'), or words joined
            // by - _ : . / ('viewer.zoomIn', 'template:', ':row', 'c_', '.zip').
            '^[-_:./]?[a-z][a-zA-Z0-9]*([-_:./][a-zA-Z0-9]*)*$',
            // Language tags (BCP 47: 'zh-CN', 'pt-BR').
            '^[a-z]{2,3}(-[A-Z]{2}|-[A-Z][a-z]{3})?$',
            // Class lists: lower-case tokens, one with a hyphen at least ('rounded bg-amber-100 px-1',
            // 'sr-only @[19rem]:not-sr-only', '!size-full', 'shadow-[4px_4px_0_-1px_var(--c),...]').
            '^(?=.*-)[a-z0-9:/.\\[\\]_%@!(),#= -]+$',
            // Colours for a canvas ('#0f172a').
            '^#[0-9a-fA-F]{3,8}$',
            // A canvas font: the size and a stack ending in a generic family.
            '(^|\\s)(sans-serif|serif|monospace|system-ui)$',
            // MIME types ('audio/webm;codecs=opus').
            '^(image|video|audio|application|text)/[a-z0-9.+-]+(;[a-z0-9=.,+-]*)?$',
            // HTTP: methods, and the scheme of the Authorization header (`Bearer ${key}`).
            '^(GET|POST|PUT|PATCH|DELETE|HEAD)$',
            '^Bearer$',
            // Keys as the keyboard prints them, alone or after the command key ('Esc', '+ Shift + Z').
            '^(Esc|Escape|Enter|Shift|Alt|Ctrl|Tab|Arrow(Left|Right|Up|Down)|[A-Z])$',
            '^(\\+ (Esc|Enter|Shift|Alt|Tab|[A-Z])\\s*)+$',
            // File formats by their own names (the list of what an upload accepts: "PNG, JPEG, WebP").
            '^(PNG|JPEG|WebP|GIF|MP4|WebM|QuickTime|MP3|WAV|Ogg)$',
            // A pattern's literal braces ('{a|b|c}'): a placeholder's value, not text (docs/i18n.md).
            '^\\{[a-z|]+\\}$',
            // The studio's name, the same in every language (shown with translate="no").
            '^Media Studio$',
            // An error class's name ('ApiError'), for code that tells errors apart.
            '^[A-Z][A-Za-z]*Error$',
          ],
          ignoreNames: [
            {
              regex: {
                // Attributes and props that hold ids, CSS or key names, never words. `style`: inline
                // CSS values (`translateY(${y}px)`); fillStyle/strokeStyle/font: a canvas's drawing state; timeZone: an IANA zone id (Intl).
                pattern:
                  '^(className|class|id|htmlFor|type|role|key|rel|target|href|src|inputMode|autoComplete|variant|size|tone|style|fillStyle|strokeStyle|font|timeZone|data-.*|aria-(labelledby|describedby|controls|live|haspopup|current|hidden|expanded|pressed|selected|checked|modal|orientation|sort|autocomplete|busy|atomic|relevant|owns|activedescendant|invalid|required|valuemin|valuemax|valuenow|keyshortcuts))$',
              },
            },
            // Constants in capitals hold ids and tables of the code (a text constant would be English
            // for good: docs/i18n.md).
            { regex: { pattern: '^[A-Z_0-9]+$' } },
          ],
          ignoreFunctions: [
            // `t` under another name, where a component's `t` (useLingui) is also in scope.
            'tNow',
            'cn',
            'clsx',
            'console.*',
            // Errors for developers and logs: the studio shows an ApiError's translated text instead.
            'Error',
            'new Error',
            'TypeError',
            'RangeError',
            'DOMException',
            'fetch',
            'URL',
            'new URL',
            'require',
            'import',
            // DOM and browser APIs: selectors, media queries, canvas contexts, header names, forms of
            // Unicode normalisation.
            'querySelector',
            '*.querySelector',
            'querySelectorAll',
            '*.querySelectorAll',
            '*.closest',
            'matchMedia',
            '*.getContext',
            '*.header',
            '*.normalize',
            'addEventListener',
            '*.addEventListener',
            'removeEventListener',
            '*.removeEventListener',
            'setAttribute',
            '*.setAttribute',
            'localStorage.*',
            'sessionStorage.*',
          ],
        },
      ],
    },
  },
);
