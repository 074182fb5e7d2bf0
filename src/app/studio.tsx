import { Trans, useLingui } from '@lingui/react/macro';
import { useLayoutEffect, useMemo } from 'react';
import type { ApiConnection } from '../api/api-context';
import { Spinner } from '../components/spinner';
import { LanguageChoice } from '../components/language-choice';
import { ConnectPanel } from '../features/connect/connect-panel';
import { useConnection } from '../features/connect/use-connection';
import { DEFAULT_BASE_URL, type StudioConfig } from './config';
import { nextTask } from '../lib/next-task';
import { useLoaded } from '../lib/use-loaded';
import { useLocale } from '../lib/use-locale';
import { Header } from './header';
import { UpdatePrompt } from './update-prompt';

// The connected studio (catalog, forms, history, compare) is a chunk of its own: the first load is the
// connect screen alone, and the rest arrives while the key is checked (fetched as connecting starts).
// Held as state (useLoaded), not React.lazy: a lazy studio's reveal waited out React's 300 ms Suspense
// throttle on every reload.
// The history's store first, in a task of its own: evaluating a module evaluates all it imports in one
// task, so the studio's code is two shorter tasks, not one long one (total blocking time).
const loadConnectedStudio = () =>
  nextTask()
    .then(() => import('../model/history/history-store'))
    .then(() => import('./connected-studio'));

// The shell: connect first; then catalog | form | quote (and history), composed from features that
// never import each other.

/** `config` is null until /config.json is read (the first render, which index.html holds prerendered). */
export function Studio({ config }: { config: StudioConfig | null }) {
  const { t } = useLingui();
  // A new locale renders the whole studio again, so every number and date on screen is rewritten in it
  // (format.ts reads the locale at each call); memoised components listen themselves.
  useLocale();
  const { state, connect, disconnect, storedBaseUrl } = useConnection();
  const connectedStudio = useLoaded(loadConnectedStudio, state.status !== 'disconnected');
  // A returning visitor's page is hidden while it reconnects (public/before-paint.js): shown once the
  // studio is drawn, or the connect screen with the reason it could not reconnect.
  const drawn = state.status === 'disconnected' || (state.status === 'connected' && connectedStudio !== null);
  useLayoutEffect(() => {
    if (drawn) document.documentElement.removeAttribute('data-reconnecting');
  }, [drawn]);
  const api = useMemo<ApiConnection | null>(
    () =>
      state.status === 'connected'
        ? { client: state.client, connectionId: state.connectionId, baseUrl: state.client.baseUrl }
        : null,
    [state],
  );

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      {state.status === 'connected' ? (
        connectedStudio && api ? (
          <connectedStudio.default
            key={state.connectionId}
            connection={api}
            initialMe={state.me}
            onDisconnect={disconnect}
            config={config}
          />
        ) : (
          <div className="flex flex-1 items-center justify-center">
            <Spinner label={t`Loading the studio`} />
          </div>
        )
      ) : (
        <>
          <Header />
          <main className="flex flex-1 flex-col items-center justify-center gap-6 px-4 py-10">
            <div className="max-w-md text-center">
              <h2 className="text-2xl font-semibold tracking-tight">
                <Trans>Make images, video and sound</Trans>
              </h2>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                <Trans>
                  Browse models, AI tools and templates, see the price before you pay, and compare results
                  side by side.
                </Trans>
              </p>
            </div>
            <ConnectPanel
              state={state}
              defaultBaseUrl={storedBaseUrl ?? config?.defaultBaseUrl ?? DEFAULT_BASE_URL}
              // Not asked for while a stored key reconnects out of sight: it is asked when the screen shows.
              demoKeysUrl={state.status === 'connecting' && state.hidden ? undefined : config?.sandboxKeysUrl}
              apiOrigins={config?.apiOrigins}
              onConnect={connect}
              awaitingConfig={config === null}
            />
            <LanguageChoice className="w-full max-w-md" />
          </main>
        </>
      )}
      <UpdatePrompt />
    </div>
  );
}
