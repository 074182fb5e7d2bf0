import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { formatBytes, formatCount } from '../../lib/format';
import type { KeepersStore } from '../../model/history/keepers';

// How much of this device the kept (starred) outputs take, against what the browser lets the studio
// use (navigator.storage.estimate()), and why the last keep failed when it did: storage full above all.

export interface StorageEstimateLike {
  usage?: number;
  quota?: number;
}

interface StorageMeterProps {
  keepers: KeepersStore;
  /** Tests inject one; navigator.storage.estimate otherwise (absent in some browsers). */
  estimate?: () => Promise<StorageEstimateLike>;
}

/** Past this share of the quota the meter warns before a keep fails. */
const NEARLY_FULL = 0.9;

const browserEstimate = (): Promise<StorageEstimateLike> | null =>
  typeof navigator !== 'undefined' && typeof navigator.storage?.estimate === 'function'
    ? navigator.storage.estimate()
    : null;

export function StorageMeter({ keepers, estimate }: StorageMeterProps) {
  const snapshot = useSyncExternalStore(keepers.subscribe, keepers.snapshot);
  const [storage, setStorage] = useState<StorageEstimateLike | null>(null);
  // The first one given is kept: an inline function must not re-run the effect on every render.
  const [ask] = useState(() => estimate ?? browserEstimate);

  // Asked again whenever what is kept changes (or a keep fails), so the figures follow.
  useEffect(() => {
    let live = true;
    ask()
      ?.then((value) => {
        if (live) setStorage(value);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [ask, snapshot.bytes, snapshot.failure]);

  const count = snapshot.kept.size;
  const usage = storage?.usage;
  const quota = storage?.quota;
  const known = typeof usage === 'number' && typeof quota === 'number' && quota > 0;
  const share = known ? Math.min(1, usage / quota) : 0;
  const percent = Math.round(share * 100);
  const failure = snapshot.failure;
  const { t } = useLingui();
  const keptCount = formatCount(count);
  const keptBytes = formatBytes(snapshot.bytes);
  const savingCount = formatCount(snapshot.saving);
  const used = known ? formatBytes(usage) : '';
  const allowed = known ? formatBytes(quota) : '';
  const failureMessage = failure?.message;

  return (
    <section aria-label={t`Storage on this device`} className="space-y-2 text-sm">
      <p className="text-slate-700 dark:text-slate-300">
        {count === 0
          ? t`No starred output is kept on this device yet.`
          : plural(count, {
              one: `Kept on this device: ${keptCount} starred output, ${keptBytes}.`,
              other: `Kept on this device: ${keptCount} starred outputs, ${keptBytes}.`,
            })}
        {snapshot.saving > 0 && t` Saving ${savingCount}…`}
      </p>
      {known && (
        <div>
          <div
            role="meter"
            aria-label={t`Storage used`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={t`${used} of ${allowed} (${percent}%)`}
            className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
          >
            <div
              className={
                share >= NEARLY_FULL
                  ? 'h-full rounded-full bg-amber-600 dark:bg-amber-400'
                  : 'h-full rounded-full bg-indigo-600 dark:bg-indigo-400'
              }
              style={{ width: `${Math.max(percent, usage > 0 ? 1 : 0)}%` }}
            />
          </div>
          <p className="mt-1 text-[13px] text-slate-600 tabular-nums dark:text-slate-400">
            <Trans>
              The studio uses {used} of the {allowed} this browser allows it ({percent}%).
            </Trans>
          </p>
        </div>
      )}
      {failure?.reason === 'quota' ? (
        <Alert tone="error" title={t`Storage is full`}>
          <p>{failure.message}</p>
          <Button size="sm" className="mt-2" onClick={() => keepers.dismissFailure()}>
            <Trans>Dismiss</Trans>
          </Button>
        </Alert>
      ) : failure && failure.reason !== 'forgotten' ? (
        <Alert tone="warning" title={t`Not kept on this device`}>
          <p>{t`${failureMessage} The output is still starred.`}</p>
          <Button size="sm" className="mt-2" onClick={() => keepers.dismissFailure()}>
            <Trans>Dismiss</Trans>
          </Button>
        </Alert>
      ) : (
        known &&
        share >= NEARLY_FULL && (
          <Alert tone="warning" live={false} title={t`Storage is nearly full`}>
            <Trans>New starred outputs may not fit; forget kept outputs you no longer need.</Trans>
          </Alert>
        )
      )}
    </section>
  );
}
