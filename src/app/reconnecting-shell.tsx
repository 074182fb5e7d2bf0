import { Trans } from '@lingui/react/macro';
import { Loader2 } from 'lucide-react';
import { Header } from './header';

/**
 * The studio's frame while a stored key reconnects, for a visit whose code is not at hand yet (no service
 * worker serving it): index.html holds it prerendered (vite.config.ts), hidden, and before-paint.js shows
 * it, so the page paints at once instead of staying blank until the studio's code has arrived and the
 * key is checked. It sits over the root element, which the studio draws into meanwhile, and goes when
 * the studio (or the connect screen with the reason it could not reconnect) is drawn. Never rendered by
 * the client: its words are English, hidden in another language until the studio speaks it.
 */
export function ReconnectingShell() {
  return (
    <div className="fixed inset-0 z-40 flex flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Header />
      <main className="flex flex-1 items-center justify-center px-4">
        <p
          role="status"
          className="inline-flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          <span data-shell-words="">
            <Trans>Reconnecting…</Trans>
          </span>
        </p>
      </main>
    </div>
  );
}
