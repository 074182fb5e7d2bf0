import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useApi } from '../../api/api-context';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { ModelType } from '../../../contract/category';
import { BadgeCheck } from 'lucide-react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Field, inputClass } from '../../components/field';
import { formatCount, formatDateTime } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import { currentDecision, MAX_DECISION_REASON, type Board, type Decision } from '../../model/compare/boards';
import { resolveColumns, type BoardColumn } from './board-model';

// A board's decision (docs/using.md "Decide"): the model the board chose, why, by whom and when, and
// the decisions before it (a revision is a new decision: the history stays). Shown on the board and in
// its report; never to a member still blind on the board (the model's name would unblind it).

/** A decided column's name: its model and version, or its key when the catalog no longer has it. */
export function decidedName(columns: readonly BoardColumn[], key: string): string {
  const c = columns.find((col) => col.key === key);
  return c ? `${c.model.name} · ${c.versionName}` : key;
}

/** A board's chosen model in the Boards list, named from the catalog (nothing while undecided). */
export function ChosenLine({ board }: { board: Board }) {
  const { client, connectionId } = useApi();
  const current = currentDecision(board.decisions);
  const [type, subType] = board.setup.category.split('/') as [ModelType, string];
  const models = useQuery({
    ...catalogQueries.models(client, connectionId, type, subType ?? 'default'),
    enabled: current !== null,
  });
  const columns = useMemo(
    () => resolveColumns(board.setup, models.data?.items ?? []),
    [board.setup, models.data],
  );
  if (!current) return null;
  const name = displayText(decidedName(columns, current.column));
  return (
    <span className="flex items-center gap-1 text-xs font-normal text-emerald-800 dark:text-emerald-300">
      <BadgeCheck className="size-3 shrink-0" aria-hidden="true" />
      <span dir="auto" translate="no" className="truncate">
        <Trans>Chosen: {name}</Trans>
      </span>
    </span>
  );
}

export function DecisionSummary({
  decisions,
  nameOf,
  memberName,
}: {
  decisions: readonly Decision[];
  /** A decided column's name as shown (decidedName). */
  nameOf: (column: string) => string;
  /** Who made a decision (a member id; '' for this device), as a name to show. */
  memberName: (id: string) => string;
}) {
  const { t } = useLingui();
  const current = currentDecision(decisions);
  if (!current) return null;
  const earlier = decisions.filter((d) => d !== current).reverse();
  const who = (d: Decision) => (d.by ? displayText(memberName(d.by) || t`A member`) : t`You`);
  const line = (d: Decision) => {
    const name = who(d);
    return (
      <>
        <span dir="auto" translate="no" className="font-semibold">
          {displayText(nameOf(d.column))}
        </span>{' '}
        <span className="text-slate-600 dark:text-slate-400">
          <span dir="auto" translate="no">
            {t`by ${name}`}
          </span>
          {', '}
          <time dateTime={new Date(d.at).toISOString()}>{formatDateTime(d.at)}</time>
        </span>
        {d.reason && ' '}
        {d.reason && (
          <span dir="auto" translate="no" className="block whitespace-pre-wrap wrap-anywhere">
            {displayText(d.reason)}
          </span>
        )}
      </>
    );
  };
  const count = formatCount(earlier.length);
  return (
    <section
      aria-label={t`Decision`}
      className="rounded-lg bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200 ring-inset dark:bg-emerald-950/40 dark:ring-emerald-900"
    >
      <p className="flex items-start gap-2">
        <BadgeCheck
          className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-300"
          aria-hidden="true"
        />
        <span>
          <span className="text-emerald-800 dark:text-emerald-200">
            <Trans>Chosen model:</Trans>
          </span>{' '}
          {line(current)}
        </span>
      </p>
      {earlier.length > 0 && (
        <details className="mt-2 ms-6">
          <summary className="cursor-pointer text-xs text-slate-700 dark:text-slate-300">
            {t`Earlier decisions (${count})`}
          </summary>
          <ol className="mt-1 flex flex-col gap-1 text-xs">
            {earlier.map((d, i) => (
              <li key={`${d.at}-${d.by}-${i}`}>{line(d)}</li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

export function DecideDialog({
  open,
  onOpenChange,
  columns,
  current,
  onDecide,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  columns: readonly BoardColumn[];
  /** The decision in force, whose model is offered first. */
  current: Decision | null;
  /** Records the decision; false when it could not be kept (the dialog says so and stays open). */
  onDecide: (decision: { column: string; reason: string }) => boolean;
}) {
  const { t } = useLingui();
  const group = useId();
  const [column, setColumn] = useState<string>('');
  const [reason, setReason] = useState('');
  const [failed, setFailed] = useState(false);
  const chosen = column || current?.column || '';
  const close = (next: boolean) => {
    if (!next) {
      setColumn('');
      setReason('');
      setFailed(false);
    }
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={t`Decide`}
      description={t`The model this board chose, and why. A new decision keeps the earlier ones in the board’s history.`}
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen) return;
          if (!onDecide({ column: chosen, reason: reason.trim() })) return setFailed(true);
          close(false);
        }}
      >
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">
            <Trans>Chosen model</Trans>
          </legend>
          {columns.map((c) => (
            <label key={c.key} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={group}
                value={c.key}
                checked={chosen === c.key}
                onChange={() => setColumn(c.key)}
                className="size-4 accent-indigo-600"
              />
              <span dir="auto" translate="no">
                {displayText(decidedName(columns, c.key))}
              </span>
            </label>
          ))}
        </fieldset>
        <Field
          label={t`Reason`}
          aside={`${formatCount(reason.length)} / ${formatCount(MAX_DECISION_REASON)}`}
        >
          {(control) => (
            <textarea
              {...control}
              value={reason}
              maxLength={MAX_DECISION_REASON}
              rows={3}
              onChange={(e) => setReason(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        {failed && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            <Trans>
              The team space is older than this studio and cannot keep decisions. Ask whoever runs it to
              update it.
            </Trans>
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" onClick={() => close(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" variant="primary" disabled={!chosen}>
            <Trans>Save decision</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
