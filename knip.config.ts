import type { KnipConfig } from 'knip';

// The dead-code check run by `npm run lint`: every file reachable from an entry, every export imported
// somewhere (an export only its own module uses is not an export), every dependency used. Knip's
// plugins already take the Vite, Vitest, Playwright and ESLint configs (and the tests they name) as
// entries; these are the rest, the programs run by path.
const config: KnipConfig = {
  entry: [
    // Rendered into index.html at build time by vite.config.ts (ssrLoadModule, by path).
    'src/prerender.tsx',
    'sandbox/bench/*.ts',
    'scripts/*.ts',
    'scripts/team-space/*.ts',
    // bench/team-node.ts is spawned by path; bench/zip-page is the page zip-bench builds with Vite.
    'bench/*.ts',
    'bench/zip-page/main.ts',
    'e2e/**/*.ts',
  ],
  project: [
    'src/**/*.{ts,tsx}',
    'contract/**/*.ts',
    'sandbox/**/*.ts',
    'scripts/**/*.ts',
    'bench/**/*.ts',
    'e2e/**/*.ts',
    'e2e-browsers/**/*.ts',
  ],
  // e2e-browsers/webkit.ts starts the X virtual framebuffer, a system program, not an npm package.
  ignoreBinaries: ['Xvfb'],
};

export default config;
