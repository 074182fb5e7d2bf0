import type { KnipConfig } from 'knip';

// The dead-code check run by `npm run lint`, twice.
// `knip`: every file reachable from an entry, every export imported somewhere (an export only its own
// module uses is not an export), every dependency used. Knip's plugins already take the Vite, Vitest,
// Playwright and ESLint configs (and the tests they name) as entries; these are the rest, the programs
// run by path.
// `knip --production`: the same from the programs alone (patterns ending in "!"), with tests and their
// helpers left out, so an export that only a test imports is reported too: a test checks the behaviour
// the programs use, not a door left open for it (https://knip.dev/features/production-mode).
// The exception is a limit or a pure helper its module uses and its unit test checks on its own: it is
// tagged `/** @internal */` ("exported for its unit test"), which the production run accepts
// (https://knip.dev/reference/jsdoc-tsdoc-tags).
// sandbox/src/public-catalog.ts and sandbox/src/in-process.ts are the sandbox's entries for the studio's
// tests: test helpers too.
const tests = [
  '!**/*.test.{ts,tsx}!',
  '!src/test/**!',
  '!src/test-setup.ts!',
  '!sandbox/test/**!',
  '!sandbox/src/public-catalog.ts!',
  '!sandbox/src/in-process.ts!',
];

const config: KnipConfig = {
  entry: [
    // Rendered into index.html at build time by vite.config.ts (ssrLoadModule, by path).
    'src/prerender.tsx!',
    // The build's Lingui plugin: vite.config.ts imports it (knip reads a config for its plugins, not as
    // a program), and it points every <Trans> at src/lib/i18n/safe-trans.tsx by path.
    'scripts/i18n/vite-lingui.ts!',
    'src/lib/i18n/safe-trans.tsx!',
    // `npm run i18n:extract` (docs/i18n.md); as with cli.ts below, the production run needs it named.
    'scripts/i18n/extract.ts!',
    // `npm run sandbox`: the production run follows no script but start, so it is named here (the
    // default run finds it in the script and calls the pattern redundant; it is not, for this run).
    'sandbox/src/cli.ts!',
    'sandbox/bench/*.ts!',
    'scripts/*.ts!',
    // `npm start`, `npm run team-space:node`, and the fixtures the servers' tests spawn by path.
    'server/*.ts!',
    'server/team-space/*.ts!',
    // bench/team-node.ts is spawned by path; bench/zip-page and bench/report-page are the pages zip-bench
    // and report-bench build with Vite.
    'bench/*.ts!',
    'bench/zip-page/main.ts!',
    'bench/report-page/main.ts!',
    'e2e/**/*.ts',
    // Run by sandbox/test/memory.test.ts in a process of its own, by path.
    'sandbox/test/retained-memory.ts',
    ...tests,
  ],
  project: [
    'src/**/*.{ts,tsx}!',
    'contract/**/*.ts!',
    'sandbox/**/*.ts!',
    'server/**/*.ts!',
    'node-shared/**/*.ts!',
    'scripts/**/*.ts!',
    'bench/**/*.ts!',
    'e2e/**/*.ts',
    'e2e-browsers/**/*.ts',
    ...tests,
  ],
  // System programs, not npm packages (scripts/setup-machine.sh installs them): e2e-browsers/webkit.ts
  // starts the X virtual framebuffer; the recipes' tests read files back with Debian's exiftool.
  ignoreBinaries: ['Xvfb', 'exiftool'],
};

export default config;
