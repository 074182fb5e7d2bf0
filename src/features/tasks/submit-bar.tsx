import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import type { SubmitResult } from '../../model/tasks/outbox';
import { MAX_BATCH_TASKS, MAX_RUNS, type Variations } from '../../model/tasks/batch';
import { Alert } from '../../components/alert';
import { ServiceMessage } from '../../components/service-message';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { cn } from '../../lib/cn';
import { COMMAND_KEY } from '../../lib/command-key';
import { formatCount } from '../../lib/format';
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
  const { t } = useLingui();
  const runsId = useId();
  const variationsHelpId = useId();
  const variations = controls?.variations;
  const expanded = variations?.enabled ? variations.expanded : null;
  const prompts = expanded && !expanded.tooMany ? expanded.prompts.length : 1;
  const runs = controls?.runs ?? 1;
  const tasks = prompts * runs;
  const batchSize = batch?.size ?? 0;
  const created = batch?.created ?? 0;
  const waitText = useSubmitWaitText(busy);
  // Literal braces are the placeholder's value, not message text (docs/i18n.md).
  const alternatives = '{a|b|c}';
  return (
    <div className="flex min-w-0 flex-col gap-3">
      {controls && controls.refusals.length > 0 && (
        <Alert tone="error" title={t`Batch not sent: nothing was charged`}>
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
          <ServiceMessage text={result.error.serverMessage} />
        </Alert>
      )}
      {result?.kind === 'pending' && (
        <Alert tone="warning" title={t`No answer from the service yet.`}>
          <Trans>
            Your request is saved and will be re-sent with the same Idempotency-Key, so it is charged at most
            once.
          </Trans>
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
              <span className="font-medium">
                <Trans>Variations</Trans>
              </span>
              <span id={variationsHelpId} className="block text-xs text-slate-500 dark:text-slate-400">
                <Trans>
                  The prompt is read as one prompt per line; <code>{alternatives}</code> tries each
                  alternative, every combination (at most {MAX_BATCH_TASKS}).
                </Trans>
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
          <Trans>Generate</Trans>
        </Button>
        {controls && (
          <span className="flex items-center gap-2">
            <label htmlFor={runsId} className="text-sm font-medium">
              <Trans>Runs</Trans>
            </label>
            <RunsInput id={runsId} runs={controls.runs} onRunsChange={controls.onRunsChange} />
          </span>
        )}
        {tasks > 1 && (
          <span className="text-sm text-slate-600 dark:text-slate-400" data-testid="batch-size">
            <Plural value={tasks} one="# task in one click" other="# tasks in one click" />
          </span>
        )}
        <span className="hidden text-xs text-slate-500 sm:inline dark:text-slate-400" aria-hidden="true">
          {COMMAND_KEY} + Enter
        </span>
        {busy && (
          <span className="text-sm text-slate-600 dark:text-slate-400" role="status">
            {waitText ?? t`Submitting…`}
          </span>
        )}
        {queued > 0 && !busy && (
          <span className="text-sm text-slate-700 dark:text-slate-300" role="status">
            <Plural
              value={queued}
              one="# task held in your queue: not sent or charged yet."
              other="# tasks held in your queue: not sent or charged yet."
            />
          </span>
        )}
        {result?.kind === 'created' && !busy && (
          <span className="text-sm text-emerald-700 dark:text-emerald-400" role="status">
            {batchSize > 1 ? (
              <Plural
                value={batchSize}
                one={`Queued ${created} of # task: see History.`}
                other={`Queued ${created} of # tasks: see History.`}
              />
            ) : (
              t`Queued: see History.`
            )}
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
  const { t } = useLingui();
  if (expanded.tooMany) {
    const most = formatCount(MAX_BATCH_TASKS);
    return (
      <p className="text-sm font-medium text-rose-700 dark:text-rose-400" role="alert">
        <Plural
          value={expanded.count}
          one={`# combination: at most ${most}. Remove some alternatives.`}
          other={`# combinations: at most ${most}. Remove some alternatives.`}
        />
      </p>
    );
  }
  if (expanded.count === 0) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <Trans>Write at least one prompt.</Trans>
      </p>
    );
  }
  const n = expanded.prompts.length;
  const total = n * runs;
  return (
    <div className="rounded-lg bg-slate-50 p-2 ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:ring-slate-800">
      <p className="text-xs font-medium text-slate-700 dark:text-slate-300" data-testid="variation-count">
        {runs > 1 ? (
          <Plural
            value={n}
            one={`# prompt × ${runs} runs = ${total} tasks`}
            other={`# prompts × ${runs} runs = ${total} tasks`}
          />
        ) : (
          <Plural value={n} one="# prompt" other="# prompts" />
        )}
      </p>
      <ol
        aria-label={t`Prompts to send`}
        // Scrolls when long: reachable by keyboard.
        tabIndex={0}
        className="mt-1 max-h-40 list-decimal overflow-y-auto ps-6 text-xs text-slate-700 dark:text-slate-300"
      >
        {expanded.prompts.map((p, i) => (
          <li key={i} dir="auto" translate="no" className="wrap-anywhere">
            {p}
          </li>
        ))}
      </ol>
    </div>
  );
}
