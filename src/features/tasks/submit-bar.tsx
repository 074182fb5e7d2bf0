import { Sparkles } from 'lucide-react';
import type { SubmitResult } from '../../lib/outbox';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';

/** "Generate" (a submit button of the form it sits in) and what the last submit came to. */
export function SubmitBar({
  busy,
  result,
  disabled,
}: {
  busy: boolean;
  result: SubmitResult | null;
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-col gap-3">
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
      <div className="flex items-center gap-3">
        <Button
          type="submit"
          variant="primary"
          size="lg"
          disabled={busy || disabled}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          <Sparkles className="size-4" aria-hidden="true" />
          Generate
        </Button>
        <span className="hidden text-xs text-slate-500 sm:inline dark:text-slate-400" aria-hidden="true">
          Ctrl/⌘ + Enter
        </span>
        {busy && (
          <span className="text-sm text-slate-600 dark:text-slate-400" role="status">
            Submitting…
          </span>
        )}
        {result?.kind === 'created' && !busy && (
          <span className="text-sm text-emerald-700 dark:text-emerald-400" role="status">
            Queued: see History.
          </span>
        )}
      </div>
    </div>
  );
}
