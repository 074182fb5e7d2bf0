/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { appUpdate } from './app-update';

// The offline app shell's service worker (vite.config.ts, docs/offline.md), registered once the page has
// loaded so it costs the first load nothing. A new version is never swapped in by itself: it waits until
// the user presses "Reload to update" (app-update.ts), which tells it to take over and reloads.

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => appUpdate.offer(() => update(true)),
  });
}
