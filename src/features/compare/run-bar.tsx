import { ph, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Play } from 'lucide-react';
import type { Me } from '../../../contract/me';
import { Button } from '../../components/button';
import { QuoteWarningList } from '../../components/quote-warning-list';
import { MIN_COLUMNS } from '../../model/compare/boards';
import { quoteWarnings } from '../../model/quote-warnings';
import { formatCredits } from '../../lib/format';
import type { BoardState } from './use-board';

// Running the board: its total quote (said aloud as it changes), Run all over every cell that needs a run,
// the balance warnings for that sum, and, when every cell has its result, that it has.

export function RunBar({ state, blind, me }: { state: BoardState; blind: boolean; me: Me }) {
  const { t } = useLingui();
  const { totals, toRun, runTotal, columns, ready } = state;
  const [running, setRunning] = useState(false);
  const warnings = runTotal !== null && runTotal > 0 ? quoteWarnings(runTotal, me) : [];
  const problems = state.cells.filter((c) => c.problem).length;
  const cells = toRun.length;
  const amount = runTotal !== null ? formatCredits(runTotal) : null;
  return (
    <>
      <section
        aria-label={t`Board quote`}
        className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/60 dark:ring-slate-700"
      >
        <div className="text-sm">
          <span className="text-slate-600 dark:text-slate-400">
            <Trans>Total quote:</Trans>{' '}
          </span>
          <span className="font-semibold tabular-nums" data-testid="compare-total">
            {columns.length === 0 ? '—' : totals.total === null ? t`updating…` : formatCredits(totals.total)}
          </span>
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            {blind
              ? t`The sum of every cell’s quote; each model’s part shows after Reveal.`
              : t`The sum of every cell’s quote; each model’s part is under its name.`}
            {problems > 0 &&
              ` ${plural(problems, { one: '# cell cannot run yet.', other: '# cells cannot run yet.' })}`}
          </span>
        </div>
        <Button
          variant="primary"
          disabled={!ready || running || toRun.length === 0 || columns.length < MIN_COLUMNS}
          onClick={() => {
            setRunning(true);
            void state.runAll().finally(() => setRunning(false));
          }}
        >
          <Play className="size-4" aria-hidden="true" />
          {cells === 0
            ? t`Run all`
            : amount === null
              ? plural(cells, { one: 'Run all (# cell)', other: 'Run all (# cells)' })
              : plural(cells, {
                  one: `Run all (# cell · ${amount})`,
                  other: `Run all (# cells · ${amount})`,
                })}
        </Button>
      </section>
      <QuoteWarningList warnings={warnings} />
      <div aria-live="polite" className="sr-only">
        {totals.total !== null ? t`Total quote ${ph({ amount: formatCredits(totals.total) })}` : ''}
      </div>
      {toRun.length === 0 &&
        columns.length >= MIN_COLUMNS &&
        state.cells.every((c) => c.state === 'succeeded') && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <Trans>Every cell has its result.</Trans>
          </p>
        )}
    </>
  );
}
