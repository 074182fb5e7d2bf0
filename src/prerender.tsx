import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app';
import { activateEnglish } from './lib/i18n/i18n';

// The connect screen as HTML, rendered at build time into dist/index.html (the prerender plugin in vite.config.ts),
// so it is painted before any JavaScript runs; main.tsx then hydrates it. The same tree as main.tsx
// renders first: no config, no stored key (both are read after the first render), and so no secret.
export function renderConnectScreen(): string {
  activateEnglish();
  return renderToString(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
