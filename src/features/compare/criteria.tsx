import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type KeyboardEvent } from 'react';
import { Plus, Trash2, X } from 'lucide-react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { inputClass } from '../../components/field';
import { formatCount, formatOneDecimal } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import {
  MAX_CRITERIA,
  MAX_CRITERION_NAME,
  newId,
  type Criterion,
  type ScoreSheet,
} from '../../model/compare/boards';

// A board's criteria (docs/using.md "Criteria"): what its cells are judged on, named in the Criteria
// dialog, and each member's 1-5 score of a cell per criterion, by click or key (a radio group per
// criterion: arrows move, 1-5 set it). The others' scores of a cell (the cell's average) show only once
// the board is revealed to this member: before, they would say which cell the team prefers.

const SCORES = [1, 2, 3, 4, 5] as const;

/** One cell's scoring: a group per criterion, and, revealed, the average of everyone's scores. */
export function CellScores({
  criteria,
  scores,
  me,
  cell,
  blind,
  onScore,
}: {
  criteria: readonly Criterion[];
  /** Every member's sheet (this device's under THIS_DEVICE). */
  scores: Readonly<Record<string, ScoreSheet>>;
  /** Whose sheet is this member's. */
  me: string;
  /** The cell's key. */
  cell: string;
  /** Blind to this member: the others' scores wait for Reveal. */
  blind: boolean;
  /** Sets (or, with null, takes back) this member's score of the cell on one criterion. */
  onScore: (criterion: string, score: number | null) => void;
}) {
  if (criteria.length === 0) return null;
  return (
    <div className="@container flex flex-col gap-1" data-testid="cell-scores">
      {criteria.map((c) => (
        <CriterionScore
          key={c.id}
          criterion={c}
          mine={scores[me]?.cells[cell]?.[c.id] ?? null}
          average={blind ? null : averageOf(scores, cell, c.id)}
          onScore={(score) => onScore(c.id, score)}
        />
      ))}
    </div>
  );
}

function averageOf(
  scores: Readonly<Record<string, ScoreSheet>>,
  cell: string,
  criterion: string,
): { mean: number; count: number } | null {
  let sum = 0;
  let count = 0;
  for (const sheet of Object.values(scores)) {
    const score = sheet.cells[cell]?.[criterion];
    if (score === undefined) continue;
    sum += score;
    count++;
  }
  return count ? { mean: sum / count, count } : null;
}

function CriterionScore({
  criterion,
  mine,
  average,
  onScore,
}: {
  criterion: Criterion;
  mine: number | null;
  average: { mean: number; count: number } | null;
  onScore: (score: number | null) => void;
}) {
  const { t } = useLingui();
  const group = useId();
  const name = displayText(criterion.name) || t`(unnamed)`;
  const onKeyDown = (e: KeyboardEvent) => {
    const n = Number(e.key);
    if (Number.isInteger(n) && n >= 1 && n <= 5) {
      e.preventDefault();
      onScore(n);
    }
  };
  const mean = average && formatOneDecimal(average.mean);
  const count = average && formatCount(average.count);
  return (
    <fieldset className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs" onKeyDown={onKeyDown}>
      <legend
        className="mb-0.5 max-w-full truncate text-slate-700 @[18rem]:float-start @[18rem]:mb-0 @[18rem]:me-1 @[18rem]:w-28 dark:text-slate-300"
        dir="auto"
      >
        {name}
      </legend>
      <span className="flex gap-0.5">
        {SCORES.map((n) => (
          <label key={n} className="relative">
            <input
              type="radio"
              name={group}
              value={n}
              checked={mine === n}
              onChange={() => onScore(n)}
              aria-label={t`${n} of 5`}
              className="peer sr-only"
            />
            <span
              aria-hidden="true"
              className="grid size-6 cursor-pointer place-items-center rounded-full text-[11px] font-medium text-slate-700 ring-1 ring-slate-300 peer-checked:bg-indigo-600 peer-checked:text-white peer-checked:ring-indigo-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-indigo-600 hover:bg-slate-100 dark:text-slate-200 dark:ring-slate-600 dark:peer-checked:bg-indigo-500 dark:hover:bg-slate-800"
            >
              {n}
            </span>
          </label>
        ))}
      </span>
      {mine !== null && (
        <button
          type="button"
          onClick={() => onScore(null)}
          aria-label={t`Clear your ${name} score`}
          className="rounded p-0.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-slate-400 dark:hover:bg-slate-800"
        >
          <X className="size-3.5" aria-hidden="true" />
        </button>
      )}
      {average && (
        <span className="text-slate-600 tabular-nums dark:text-slate-400" data-testid="criterion-average">
          {t`Average ${mean} (${count})`}
        </span>
      )}
    </fieldset>
  );
}

/** Names the board's criteria: add, rename, remove (a removed criterion's scores leave the report). */
export function CriteriaDialog({
  open,
  onOpenChange,
  criteria,
  keeps,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  criteria: readonly Criterion[];
  /** Whether the board can keep criteria where it lives (an older team space cannot). */
  keeps: boolean;
  onSave: (criteria: Criterion[]) => void;
}) {
  const { t } = useLingui();
  const [draft, setDraft] = useState<Criterion[] | null>(null);
  const list = draft ?? [...criteria];
  const close = (next: boolean) => {
    if (!next) setDraft(null);
    onOpenChange(next);
  };
  const max = formatCount(MAX_CRITERIA);
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={t`Criteria`}
      description={t`What this board’s results are judged on. Each member scores every result 1 to 5 on each; the model report averages them. At most ${max}.`}
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(list.map((c) => ({ ...c, name: c.name.trim() })).filter((c) => c.name));
          close(false);
        }}
      >
        <ol className="flex flex-col gap-2">
          {list.map((c, i) => {
            const number = i + 1;
            return (
              <li key={c.id} className="flex items-center gap-2">
                <input
                  value={c.name}
                  maxLength={MAX_CRITERION_NAME}
                  aria-label={t`Criterion ${number}`}
                  placeholder={t`For example: prompt adherence`}
                  dir="auto"
                  onChange={(e) =>
                    setDraft(list.map((x) => (x.id === c.id ? { ...x, name: e.target.value } : x)))
                  }
                  className={inputClass}
                />
                <Button
                  type="button"
                  variant="ghost"
                  aria-label={t`Remove criterion ${number}`}
                  onClick={() => setDraft(list.filter((x) => x.id !== c.id))}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ol>
        {list.length === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <Trans>No criteria yet: the board is judged by votes alone.</Trans>
          </p>
        )}
        <div>
          <Button
            type="button"
            disabled={list.length >= MAX_CRITERIA}
            onClick={() => setDraft([...list, { id: newId(), name: '' }])}
          >
            <Plus className="size-4" aria-hidden="true" />
            <Trans>Add criterion</Trans>
          </Button>
        </div>
        {!keeps && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            <Trans>
              The team space is older than this studio and cannot keep criteria or scores. Ask whoever runs it
              to update it.
            </Trans>
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" onClick={() => close(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" variant="primary" disabled={!keeps}>
            <Trans>Save criteria</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
