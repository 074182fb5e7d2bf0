import { readdirSync } from 'node:fs';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';

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

export default defineConfig(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'bench/results.json'] },
  js.configs.recommended,
  tseslint.configs.recommended,
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
      // The layers of docs/ARCHITECTURE.md: features never reach into each other; the sandbox imports only the contract.
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
            // The layers (docs/ARCHITECTURE.md): contract <- api <- model <- components/features <- app.
            {
              target: './contract',
              from: ['./src', './sandbox', './e2e', './scripts', './bench'],
              message:
                'The contract imports nothing else of ours: both the studio and the sandbox build on it.',
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
              from: ['./src'],
              message: 'The sandbox imports only the contract, never the studio.',
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
    // React 19 passes `ref` as an ordinary prop: forwardRef is deprecated (issue 17). The model's block
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
    files: ['src/model/**/*.ts', 'contract/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react-dom/*', '@tanstack/react-*', 'radix-ui'],
              message: 'The domain layer has no React.',
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
);
