import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { formatCount } from '../lib/format';
import { useLocale } from '../lib/use-locale';

/** Today's spend against a daily cap: the figures, and a meter that warns near the cap. */
export function CapMeter({ spent, cap, testId }: { spent: number; cap: number; testId?: string }) {
  const id = useId();
  useLocale();
  return (
    <>
      <div className="flex justify-between gap-2 text-xs">
        <span id={id}>
          <Trans>Spent today, against the daily cap</Trans>
        </span>
        <span className="tabular-nums" data-testid={testId}>
          {formatCount(spent)} / {formatCount(cap)}
        </span>
      </div>
      <meter
        aria-labelledby={id}
        className="mt-1 h-2 w-full"
        min={0}
        max={cap}
        low={cap * 0.7}
        high={cap * 0.9}
        optimum={0}
        value={spent}
      />
    </>
  );
}
