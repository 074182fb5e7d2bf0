import { Trans } from '@lingui/react/macro';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../components/button';

/**
 * "A new version of the studio is ready", with "Reload to update" (update-prompt.tsx): a chunk of its
 * own, as it is only shown when a new build's service worker waits, never on a first visit.
 */
export function UpdateOffer({ update }: { update: () => Promise<void> }) {
  const [reloading, setReloading] = useState(false);
  return (
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
  );
}
