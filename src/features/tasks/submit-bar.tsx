import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import type { SubmitResult } from '../../model/tasks/outbox';
import { MAX_BATCH_TASKS, MAX_RUNS, type Variations } from '../../model/tasks/batch';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { useSubmitWaitText } from './use-submit-wait';

export interface BatchControls {
  runs: number;
  onRunsChange: (runs: number) => void;
  /** Absent when the open item has no prompt to vary. */
  variations?: {
    enabled: boolean;
    onEnabledChange: (enabled: boolean) => void;
    /** The prompt read as variations (only while enabled). */
    expanded: Variations | null;
  };
  /** Why the last click sent nothing (a batch over the cap or balance), with the numbers. */
  refusals: readonly string[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Generate" (a submit button of the form it sits in), "Runs", "Variations", and the last submit's outcome. */
export function SubmitBar({
  busy,
  result,
  batch,
  disabled,
  controls,
  queued = 0,
}: {
  busy: boolean;
  /** How many tasks the last click put in the queue (held on this device, not sent yet). */
  queued?: number;
  result: SubmitResult | null;
  /** The last submit was a batch: its size and how many tasks were created. */
  batch?: { size: number; created: number } | null;
  disabled?: boolean;
  controls?: BatchControls;
}) {
  const runsId = useId();
  const variationsHelpId = useId();
  const variations = controls?.variations;
  const expanded = variations?.enabled ? variations.expanded : null;
  const prompts = expanded && !expanded.tooMany ? expanded.prompts.length : 1;
  const runs = controls?.runs ?? 1;
  const tasks = prompts * runs;
  const waitText = useSubmitWaitText(busy);
  return (
    <div className="flex min-w-0 flex-col gap-3">
      {controls && controls.refusals.length > 0 && (
        <Alert tone="error" title="Batch not sent: nothing was charged">
          <ul className="list-disc ps-4">
            {controls.refusals.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </Alert>
      )}
      {result?.kind === 'refused' && (
        <Alert tone="error" title={result.error.message}>
          {result.error.remedy}
        </Alert>
      )}
      {result?.kind === 'pending' && (
        <Alert tone="warning" title="No answer from the service yet.">
          Your request is saved and will be re-sent with the same Idempotency-Key, so it is charged at most
          once.
        </Alert>
      )}
      {variations && (
        <div className="flex flex-col gap-2">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              checked={variations.enabled}
              onChange={(e) => variations.onEnabledChange(e.target.checked)}
              aria-describedby={variationsHelpId}
              className="mt-0.5 size-4 accent-indigo-600"
            />
            <span>
              <span className="font-medium">Variations</span>
              <span id={variationsHelpId} className="block text-xs text-slate-500 dark:text-slate-400">
                The prompt is read as one prompt per line; <code>{'{a|b|c}'}</code> tries each alternative,
                every combination (at most {MAX_BATCH_TASKS}).
              </span>
            </span>
          </label>
          {expanded && <VariationList expanded={expanded} runs={runs} />}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant="primary"
          size="lg"
          disabled={busy || disabled || (expanded?.tooMany ?? false) || expanded?.count === 0}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          <Sparkles className="size-4" aria-hidden="true" />
          Generate
        </Button>
        {controls && (
          <span className="flex items-center gap-2">
            <label htmlFor={runsId} className="text-sm font-medium">
              Runs
            </label>
            <RunsInput id={runsId} runs={controls.runs} onRunsChange={controls.onRunsChange} />
          </span>
        )}
        {tasks > 1 && (
          <span className="text-sm text-slate-600 dark:text-slate-400" data-testid="batch-size">
            {plural(tasks, 'task', 'tasks')} in one click
          </span>
        )}
        <span className="hidden text-xs text-slate-500 sm:inline dark:text-slate-400" aria-hidden="true">
          Ctrl/⌘ + Enter
        </span>
        {busy && (
          <span className="text-sm text-slate-600 dark:text-slate-400" role="status">
            {waitText ?? 'Submitting…'}
          </span>
        )}
        {queued > 0 && !busy && (
          <span className="text-sm text-slate-700 dark:text-slate-300" role="status">
            {plural(queued, 'task', 'tasks')} held in your queue: not sent or charged yet.
          </span>
        )}
        {result?.kind === 'created' && !busy && (
          <span className="text-sm text-emerald-700 dark:text-emerald-400" role="status">
            {batch && batch.size > 1
              ? `Queued ${batch.created} of ${plural(batch.size, 'task', 'tasks')}: see History.`
              : 'Queued: see History.'}
          </span>
        )}
      </div>
    </div>
  );
}

const clampRuns = (n: number): number =>
  Number.isFinite(n) ? Math.min(MAX_RUNS, Math.max(1, Math.trunc(n))) : 1;

/** A spin button (1-10); what is typed may be empty for a moment, and settles on blur. */
function RunsInput({
  id,
  runs,
  onRunsChange,
}: {
  id: string;
  runs: number;
  onRunsChange: (runs: number) => void;
}) {
  const [text, setText] = useState(String(runs));
  const [shown, setShown] = useState(runs);
  if (shown !== runs) {
    // Changed from outside (a reset): show it.
    setShown(runs);
    setText(String(runs));
  }
  return (
    <input
      id={id}
      type="number"
      inputMode="numeric"
      min={1}
      max={MAX_RUNS}
      step={1}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value.trim() === '') return;
        const next = clampRuns(e.target.valueAsNumber);
        setShown(next);
        onRunsChange(next);
      }}
      onBlur={() => setText(String(runs))}
      className={cn(inputClass, 'w-16 tabular-nums')}
    />
  );
}

/** The prompts a batch will send, shown before anything is sent. */
function VariationList({ expanded, runs }: { expanded: Variations; runs: number }) {
  useLocale();
  if (expanded.tooMany) {
    return (
      <p className="text-sm font-medium text-rose-700 dark:text-rose-400" role="alert">
        {formatCount(expanded.count)} combinations: at most {MAX_BATCH_TASKS}. Remove some alternatives.
      </p>
    );
  }
  if (expanded.count === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">Write at least one prompt.</p>;
  }
  const n = expanded.prompts.length;
  return (
    <div className="rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:ring-slate-800">
      <p className="text-xs font-medium text-slate-700 dark:text-slate-300" data-testid="variation-count">
        {plural(n, 'prompt', 'prompts')}
        {runs > 1 ? ` × ${runs} runs = ${n * runs} tasks` : ''}
      </p>
      <ol
        aria-label="Prompts to send"
        // Scrolls when long: reachable by keyboard.
        tabIndex={0}
        className="mt-1 max-h-40 list-decimal overflow-y-auto ps-6 text-xs text-slate-700 dark:text-slate-300"
      >
        {expanded.prompts.map((p, i) => (
          <li key={i} dir="auto" className="wrap-anywhere">
            {p}
          </li>
        ))}
      </ol>
    </div>
  );
}
