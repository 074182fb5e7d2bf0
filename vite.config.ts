import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { linguiPlugins } from './scripts/i18n/vite-lingui';
import { beforePaintInDev } from './scripts/before-paint';
import { firstPaint } from './scripts/first-paint';
import { precompress } from './scripts/precompress';

// The connect screen is painted before any JavaScript runs (docs/benchmarks.md "lighthouse"), and so is
// the studio's frame while a stored key reconnects. After the client build, this renders src/prerender.tsx
// with react-dom/server (loaded through Vite's SSR module loader, so nothing is written but index.html):
// the connect screen into dist/index.html's root element, which src/main.tsx hydrates, and the frame into
// the element beside it, which stays static.
function prerenderConnectScreen(): Plugin {
  const rootElement = '<div id="root"></div>';
  // The studio's frame while a stored key reconnects (src/app/reconnecting-shell.tsx), beside the root.
  const shellElement = '<div id="reconnecting"></div>';
  let config: ResolvedConfig;
  return {
    name: 'media-studio:prerender-connect-screen',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      sequential: true,
      async handler() {
        const server = await createServer({
          configFile: false,
          root: config.root,
          logLevel: 'error',
          plugins: [...linguiPlugins(), react()],
          server: { middlewareMode: true, hmr: false, watch: null },
          // Server rendering needs no pre-bundled dependencies (its scan would also trip on virtual modules).
          optimizeDeps: { noDiscovery: true, include: [] },
          appType: 'custom',
        });
        try {
          const { renderConnectScreen, renderReconnectingShell } = (await server.ssrLoadModule(
            '/src/prerender.tsx',
          )) as { renderConnectScreen: () => string; renderReconnectingShell: () => string };
          const file = resolve(config.root, config.build.outDir, 'index.html');
          const html = readFileSync(file, 'utf8');
          for (const element of [rootElement, shellElement])
            if (!html.includes(element)) throw new Error(`index.html has no ${element} to fill`);
          writeFileSync(
            file,
            html
              .replace(rootElement, () => `<div id="root">${renderConnectScreen()}</div>`)
              .replace(shellElement, () => `<div id="reconnecting">${renderReconnectingShell()}</div>`),
          );
        } finally {
          await server.close();
        }
      },
    },
  };
}

// The offline app shell (docs/offline.md): a Workbox service worker precaches the built files, so a studio
// loaded once opens again without a network (its history, gallery, kept copies and drafts are in IndexedDB
// and OPFS already). It caches nothing at run time: no API answer, no /config.json, nothing that carries a
// key. 'prompt': a new version waits for "Reload to update", never swapped under a running form. The
// studio registers it itself after the load event (src/app/service-worker.ts), so nothing is injected.
const offlineShell = () =>
  VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    manifest: {
      name: 'Media Studio',
      short_name: 'Media Studio',
      description: 'A browser studio for generative images, video and audio.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#f8fafc',
      theme_color: '#4f46e5',
      icons: [
        { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // The app shell only: scripts, styles, the page and its pictures. Not *.json (config.json is the
      // host's, read fresh), not source maps.
      globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      navigateFallback: '/index.html',
      // A navigation to these is the server's, never the shell: the API proxy (/proxy, server/proxy.ts), the team space's socket,
      // the sandbox's control paths, the config.
      navigateFallbackDenylist: [
        /^\/proxy(\/|$)/,
        /^\/api(\/|$)/,
        /^\/v1(\/|$)/,
        /^\/sync(\/|$)/,
        /^\/__/,
        /^\/config\.json/,
      ],
      runtimeCaching: [],
      cleanupOutdatedCaches: true,
      // The first visit is not slowed: the worker takes over pages only from the next load on.
      clientsClaim: false,
      skipWaiting: false,
    },
  });

export default defineConfig({
  // The prerender first: the worker's precache list then has the revision of the prerendered index.html.
  plugins: [
    ...linguiPlugins(),
    react(),
    tailwindcss(),
    prerenderConnectScreen(),
    // public/before-paint.js with its languages filled in: served by the dev server, inlined by the build.
    beforePaintInDev(),
    firstPaint(),
    offlineShell(),
    // Last: every text file of dist/ as it is served, compressed beside itself (Brotli and gzip).
    precompress(),
  ],
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  // Maps for an error tracker or a debugger, named by no chunk and not served (docs/testing.md).
  build: {
    target: 'es2022',
    // Every browser the studio supports has <link rel=modulepreload>: no polyfill in the first load.
    modulePreload: { polyfill: false },
    sourcemap: 'hidden',
    // Everything the entry imports statically is one chunk: the first load is the entry, loaded whole
    // anyway. By itself Rolldown splits what the entry shares with lazy chunks (React, the button, Lingui)
    // into chunks of their own (https://github.com/rolldown/rolldown/issues/10731), each preloaded and
    // gzipped apart, about 1 KB more for the same code (docs/i18n.md "Measured"). Lazy chunks import it
    // from the entry chunk instead.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'first-load', tags: ['$initial'] }] } },
    },
  },
  test: {
    // One worker more than the cores: many files wait on child processes, servers and timers (a
    // sandbox, redis-server, ffmpeg), and the extra worker fills that idle time. On 2 cores the whole
    // run took 7.9 min with 2 workers and 5.0 with 3 (docs/testing.md).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['src/test-setup.ts'],
          // No test measures speed (the bench does): a loaded machine types and renders slowly, and
          // Vitest's default 5 s per test would then fail tests for time alone.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'sandbox',
          // bench/: its results file. server/ and scripts/ are projects of their own (below), not run twice.
          include: ['contract/**/*.test.ts', 'sandbox/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          // server/: the `npm start` server, its proxy and the team-space server, against real servers
          // (a sandbox, redis-server, PostgreSQL) or a fake API.
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'tooling',
          // scripts/: the dev tools' tests and the checks of the house rules (lint zones, knip, logical
          // CSS, the build's first paint, the catalogs, the machine's setup).
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
