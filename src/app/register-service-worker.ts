/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { appUpdate } from './app-update';
// What the offer shows (update-prompt.tsx loads it when there is one) loads with the registration, so it
// is at hand whenever an update is offered, even once a new build has replaced the files it came from.
import './update-offer';

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
