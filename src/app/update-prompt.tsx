import { useLingui } from '@lingui/react/macro';
import { useSyncExternalStore } from 'react';
import { useLoaded } from '../lib/use-loaded';
import { appUpdate } from './app-update';

// What it shows (update-offer.tsx) is not part of the first load (docs/benchmarks.md "bundle"): it
// loads with the service worker's registration (register-service-worker.ts), which alone offers an
// update. The live region is on the page from the start, so what appears in it is announced.
const loadOffer = () => import('./update-offer');

/**
 * "A new version of the studio is ready", with "Reload to update": shown when a new build's service worker
 * waits. The reload is the user's to choose, so a form being filled in is never swapped away under them.
 */
export function UpdatePrompt() {
  const { t } = useLingui();
  const update = useSyncExternalStore(appUpdate.subscribe, appUpdate.snapshot, () => null);
  const offer = useLoaded(loadOffer, update !== null);
  return (
    <div
      role="status"
      aria-label={t`Studio update`}
      className="pointer-events-none fixed inset-x-0 bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-40 flex justify-center px-4 empty:hidden sm:bottom-4"
    >
      {update && offer && <offer.UpdateOffer update={update} />}
    </div>
  );
}
