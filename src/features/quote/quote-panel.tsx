import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Clock, Loader2 } from 'lucide-react';
import type { Me } from '../../../contract/me';
import { Alert } from '../../components/alert';
import { ServiceMessage } from '../../components/service-message';
import { cn } from '../../lib/cn';
import { formatCredits, formatSeconds } from '../../lib/format';
import type { QuoteState } from './quote-scheduler';

import { QuoteWarningList } from '../../components/quote-warning-list';
import { quoteWarnings } from '../../model/quote-warnings';
import { batchRefusals, batchTotal } from '../../model/tasks/batch';

const BREAKDOWN_LABELS: Array<[keyof NonNullable<QuoteState['quote']>['breakdown'], MessageDescriptor]> = [
  ['pricingKey', msg`Pricing`],
  ['base', msg`Base`],
  ['multiplier', msg`Multiplier`],
  ['surcharges', msg`Surcharges`],
  ['basePrice', msg`Base price`],
  ['minPriceApplied', msg`Minimum price applied`],
];

export function QuoteView({
  state,
  me,
  invalid,
  tasks = 1,
}: {
  state: QuoteState;
  me: Me | undefined;
  invalid: boolean;
  /** A batch ("Runs", "Variations"): the total of this many tasks is shown and checked. */
  tasks?: number;
}) {
  const { t, i18n } = useLingui();
  const { quote, stale, loading, error } = state;
  const price = quote ? formatCredits(quote.credits) : '';
  const seconds = quote?.estimatedSeconds == null ? '' : formatSeconds(quote.estimatedSeconds);
  const warnings =
    quote && !stale
      ? tasks > 1
        ? batchRefusals(quote.credits, tasks, me).filter(
            (r): r is typeof r & { kind: 'cap' | 'balance' } => r.kind !== 'size',
          )
        : quoteWarnings(quote.credits, me)
      : [];
  return (
    <section aria-labelledby="quote-title" className="flex flex-col gap-3" aria-busy={loading}>
      <div className="flex items-center justify-between">
        <h2 id="quote-title" className="text-sm font-semibold">
          <Trans>Quote</Trans>
        </h2>
        {(loading || stale) && !invalid && (
          <span
            className="inline-flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400"
            data-testid="quote-stale"
          >
            <Loader2 className="size-3 animate-spin" aria-hidden="true" />
            <Trans>updating</Trans>
          </span>
        )}
      </div>
      {quote ? (
        <div>
          {/* Only the (large) price fades while stale: faded small text would fall under 4.5:1. */}
          <p
            className={cn(
              'text-3xl font-semibold tracking-tight tabular-nums transition-opacity',
              stale && 'opacity-60',
            )}
            data-testid="quote-credits"
          >
            {formatCredits(quote.credits)}
          </p>
          {tasks > 1 && (
            <p className="mt-1 text-sm" data-testid="quote-batch">
              <span className="text-slate-600 dark:text-slate-400">
                <Plural
                  value={tasks}
                  one={`Batch: # task × ${price} =`}
                  other={`Batch: # tasks × ${price} =`}
                />{' '}
              </span>
              <span className="font-semibold tabular-nums" data-testid="quote-batch-total">
                {formatCredits(batchTotal(quote.credits, tasks))}
              </span>
            </p>
          )}
          <p className="mt-1 flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            <Clock className="size-3" aria-hidden="true" />
            {quote.estimatedSeconds === null
              ? t`No timing yet for this model`
              : t`About ${seconds} to generate`}
          </p>
          <details className="mt-3 text-xs">
            <summary className="cursor-pointer text-slate-600 select-none dark:text-slate-400">
              <Trans>Price breakdown</Trans>
            </summary>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              {BREAKDOWN_LABELS.map(([k, label]) => (
                <div key={k} className="contents">
                  <dt className="text-slate-500 dark:text-slate-400">{i18n._(label)}</dt>
                  {/* The service's own values, as it sent them. */}
                  <dd
                    className="truncate text-end font-mono tabular-nums"
                    data-testid={`breakdown-${k}`}
                    translate="no"
                  >
                    {String(quote.breakdown[k])}
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        </div>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          {invalid
            ? t`Complete the required fields to see the price.`
            : loading
              ? t`Pricing…`
              : t`No price yet.`}
        </p>
      )}
      {invalid && quote && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>Fix the form to update the price.</Trans>
        </p>
      )}
      {error && (
        <Alert tone="error" title={error.message}>
          {error.remedy}
          <ServiceMessage text={error.serverMessage} />
        </Alert>
      )}
      <QuoteWarningList warnings={warnings} />
    </section>
  );
}
