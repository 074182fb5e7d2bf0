import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app';
import { ReconnectingShell } from './app/reconnecting-shell';
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

// The studio's frame shown while a stored key reconnects on a visit without the code at hand
// (src/app/reconnecting-shell.tsx): static HTML beside the root, never hydrated.
export function renderReconnectingShell(): string {
  activateEnglish();
  return renderToString(
    <I18nProvider i18n={i18n}>
      <ReconnectingShell />
    </I18nProvider>,
  );
}
