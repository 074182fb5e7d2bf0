import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { activateEnglish, activateLanguage, startingLanguage } from './lib/i18n/i18n';
import './index.css';
import { pageParsed, stylesLoaded } from './lib/page-ready';

// The built page loads this script after its first paint (scripts/first-paint.ts), or at once while the
// page stays hidden, maybe before it is parsed: the studio starts once the page is whole and the
// stylesheet has loaded (the page holds only the CSS of the prerendered connect screen inline).
const ready = Promise.all([pageParsed(), stylesLoaded()]);

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The built index.html holds the connect screen prerendered (src/prerender.tsx): take it over. The dev
// server's index.html has an empty root: render into it. The page is already painted and usable, so the
// hydration is a transition: React does it in slices of a few milliseconds, not in one long task (total
// blocking time, docs/benchmarks.md "lighthouse"); an event on the page before it is done hydrates at
// once, and replays.
// In another language than English, its catalog first; the English prerendered page (hidden meanwhile,
// public/before-paint.js) is replaced, not hydrated.
// A returning visitor's studio reconnects by itself (public/before-paint.js hides the prerendered connect
// screen meanwhile): nothing to hydrate; the first render is the reconnecting studio, also as a transition.
const language = startingLanguage();
if (language === 'en') {
  activateEnglish();
  void ready.then(() => {
    const root = document.getElementById('root')!;
    const reconnecting = document.documentElement.hasAttribute('data-reconnecting');
    if (root.firstElementChild && !reconnecting) startTransition(() => void hydrateRoot(root, app));
    else {
      root.replaceChildren();
      startTransition(() => createRoot(root).render(app));
    }
  });
} else {
  void activateLanguage(language)
    .catch(activateEnglish) // its catalog could not load (offline before it was cached): English
    .then(() => ready)
    .then(() => {
      const root = document.getElementById('root')!;
      root.replaceChildren();
      createRoot(root).render(app);
    });
}

// The offline app shell's service worker registers after the load event: its code (workbox-window) is a
// chunk of its own, not part of the first load.
const registerWorker = () =>
  void import('./app/register-service-worker').then((m) => m.registerServiceWorker());
if (import.meta.env.PROD) {
  if (document.readyState === 'complete') registerWorker();
  else window.addEventListener('load', registerWorker, { once: true });
}
