import { Trans, useLingui } from '@lingui/react/macro';
import { RefreshCw } from 'lucide-react';
import { useState, useSyncExternalStore } from 'react';
import { Button } from '../components/button';
import { appUpdate } from './app-update';

/**
 * "A new version of the studio is ready", with "Reload to update": shown when a new build's service worker
 * waits. The reload is the user's to choose, so a form being filled in is never swapped away under them.
 */
export function UpdatePrompt() {
  const { t } = useLingui();
  const update = useSyncExternalStore(appUpdate.subscribe, appUpdate.snapshot, () => null);
  const [reloading, setReloading] = useState(false);
  return (
    <div
      role="status"
      aria-label={t`Studio update`}
      className="pointer-events-none fixed inset-x-0 bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-40 flex justify-center px-4 empty:hidden sm:bottom-4"
    >
      {update && (
        <div className="pointer-events-auto flex items-center gap-3 rounded-xl bg-white px-4 py-2.5 text-sm shadow-lg ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
          <span>
            <Trans>A new version of the studio is ready.</Trans>
          </span>
          <Button
            size="sm"
            variant="primary"
            disabled={reloading}
            onClick={() => {
              setReloading(true);
              void update();
            }}
          >
            <RefreshCw className="size-4" aria-hidden="true" />
            <Trans>Reload to update</Trans>
          </Button>
        </div>
      )}
    </div>
  );
}
