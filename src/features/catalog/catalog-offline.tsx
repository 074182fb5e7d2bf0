import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { CloudOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { catalogKeepOf } from '../../api/queries/catalog-queries';
import { formatDate } from '../../lib/format';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

const never = () => null;

/** In the studio's language: the time alone on the same day, else the date and the time. */
const timeOf = (at: number) => {
  const sameDay = new Date(at).toDateString() === new Date().toDateString();
  return formatDate(
    at,
    sameDay ? { hour: '2-digit', minute: '2-digit' } : { dateStyle: 'medium', timeStyle: 'short' },
  );
};

/** When the catalog shown was read from this device because the network had NO_SUBSCRIBE (docs/offline.md). */
export function CatalogOfflineHint() {
  const { t } = useLingui();
  const keep = catalogKeepOf(useQueryClient());
  const from = useSyncExternalStore(keep?.subscribe ?? NO_SUBSCRIBE, keep?.offlineFrom ?? never);
  if (from === null) return null;
  const when = timeOf(from);
  const iso = new Date(from).toISOString();
  return (
    <p
      role="status"
      aria-label={t`Offline catalog`}
      className="flex items-center gap-1.5 text-xs text-amber-800 dark:text-amber-300"
    >
      <CloudOff className="size-3.5 shrink-0" aria-hidden="true" />
      <span>
        <Trans>
          Offline: catalog from <time dateTime={iso}>{when}</time>
        </Trans>
      </span>
    </p>
  );
}
