import { useQueryClient } from '@tanstack/react-query';
import { CloudOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { catalogKeepOf } from '../../api/queries/catalog-queries';

const none = () => () => undefined;
const never = () => null;

const timeOf = (at: number) => {
  const date = new Date(at);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/** When the catalog shown was read from this device because the network had none (docs/offline.md). */
export function CatalogOfflineHint() {
  const keep = catalogKeepOf(useQueryClient());
  const from = useSyncExternalStore(keep?.subscribe ?? none, keep?.offlineFrom ?? never);
  if (from === null) return null;
  return (
    <p
      role="status"
      aria-label="Offline catalog"
      className="flex items-center gap-1.5 text-xs text-amber-800 dark:text-amber-300"
    >
      <CloudOff className="size-3.5 shrink-0" aria-hidden="true" />
      <span>
        Offline: catalog from <time dateTime={new Date(from).toISOString()}>{timeOf(from)}</time>
      </span>
    </p>
  );
}
