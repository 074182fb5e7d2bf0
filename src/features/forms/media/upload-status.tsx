import { ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Ban, CheckCircle2, Loader2, ShieldAlert, XCircle } from 'lucide-react';
import { Button } from '../../../components/button';
import { ServiceMessage } from '../../../components/service-message';
import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';
import { formatBytes, formatList } from '../../../lib/format';
import type { UploadState } from './upload-machine';

function Line({
  tone,
  icon,
  children,
}: {
  tone: 'muted' | 'ok' | 'bad';
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        'flex items-start gap-1.5 text-xs',
        tone === 'muted' && 'text-slate-600 dark:text-slate-400',
        tone === 'ok' && 'text-emerald-700 dark:text-emerald-400',
        tone === 'bad' && 'text-rose-700 dark:text-rose-400',
      )}
    >
      {icon}
      <div className="min-w-0 [overflow-wrap:anywhere]">{children}</div>
    </div>
  );
}

const spin = <Loader2 className="mt-px size-3.5 shrink-0 animate-spin" aria-hidden="true" />;
const bad = <XCircle className="mt-px size-3.5 shrink-0" aria-hidden="true" />;

/** Where an upload stands: progress, processing (video moderation), ready, blocked with labels, errors. */
export function UploadStatus({ state, onCancel }: { state: UploadState; onCancel?: () => void }) {
  const { t } = useLingui();
  const cancellable = onCancel && (state.phase === 'uploading' || state.phase === 'processing');
  return (
    // Hidden while there is nothing to say. Not with CSS `:has(> :empty)`: WebKitGTK 2.50 never
    // re-evaluates it when the status fills, so the line stayed hidden there (e2e-browsers found it).
    <div className="flex items-start gap-2" hidden={state.phase === 'idle'}>
      {/* One polite live region: each phase change is announced, progress ticks are not re-read. */}
      <div role="status" aria-live="polite" className="min-w-0 flex-1 empty:hidden">
        <Phase state={state} />
      </div>
      {cancellable && (
        <Button
          size="sm"
          variant="ghost"
          onClick={onCancel}
          aria-label={t`Cancel upload of ${ph({ fileName: state.fileName })}`}
        >
          <Ban className="size-3.5" aria-hidden="true" />
          <Trans>Cancel</Trans>
        </Button>
      )}
    </div>
  );
}

function Phase({ state }: { state: UploadState }): ReactNode {
  const { t } = useLingui();
  const fileName = state.phase === 'idle' ? '' : state.fileName;
  switch (state.phase) {
    case 'idle':
      return null;
    case 'refused':
      return (
        <Line tone="bad" icon={bad}>
          {state.fileName ? <span className="font-medium">{state.fileName}: </span> : null}
          {state.message}
        </Line>
      );
    case 'uploading': {
      const pct = state.total > 0 ? Math.round((state.loaded / state.total) * 100) : 0;
      const loaded = formatBytes(state.loaded);
      const total = formatBytes(state.total);
      return (
        <div className="space-y-1">
          <Line tone="muted" icon={spin}>
            <Trans>
              Uploading <span className="font-medium">{fileName}</span>… {pct}%
              <span className="text-slate-500 dark:text-slate-400">
                {' '}
                ({loaded} of {total})
              </span>
            </Trans>
          </Line>
          <progress
            className="block h-1.5 w-full overflow-hidden rounded-full bg-slate-200 accent-indigo-600 [&::-moz-progress-bar]:bg-indigo-600 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600 dark:bg-slate-700 dark:[&::-webkit-progress-bar]:bg-slate-700"
            max={100}
            value={pct}
            aria-label={t`Uploading ${fileName}`}
          />
        </div>
      );
    }
    case 'processing':
      return (
        <Line tone="muted" icon={spin}>
          <Trans>
            <span className="font-medium">{fileName}</span> uploaded; processing (the video is being checked).
            This can take a few minutes.
          </Trans>
        </Line>
      );
    case 'ready':
      return (
        <Line tone="ok" icon={<CheckCircle2 className="mt-px size-3.5 shrink-0" aria-hidden="true" />}>
          <Trans>
            <span className="font-medium">{fileName}</span> is ready.
          </Trans>
        </Line>
      );
    case 'blocked': {
      const labels = state.labels.length > 0 ? formatList(state.labels) : null;
      return (
        <Line tone="bad" icon={<ShieldAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />}>
          {labels ? (
            <Trans>
              <span className="font-medium">{fileName}</span> was blocked by content moderation (labels:{' '}
              <span className="font-medium">{labels}</span>). Use a different file.
            </Trans>
          ) : (
            <Trans>
              <span className="font-medium">{fileName}</span> was blocked by content moderation. Use a
              different file.
            </Trans>
          )}
        </Line>
      );
    }
    case 'cancelled':
      return (
        <Line tone="muted" icon={<Ban className="mt-px size-3.5 shrink-0" aria-hidden="true" />}>
          <Trans>
            Upload of <span className="font-medium">{fileName}</span> cancelled.
          </Trans>
        </Line>
      );
    case 'errored': {
      const { reason } = state;
      return (
        <Line tone="bad" icon={bad}>
          <Trans>
            <span className="font-medium">{fileName}</span> could not be processed: {reason}
          </Trans>
        </Line>
      );
    }
    case 'failed':
      return (
        <Line tone="bad" icon={bad}>
          <span className="font-medium">{state.fileName}</span>: {state.message}
          {state.remedy ? (
            <span className="block text-slate-600 dark:text-slate-400">{state.remedy}</span>
          ) : null}
          <ServiceMessage text={state.serverMessage} className="text-slate-600 dark:text-slate-400" />
        </Line>
      );
  }
}
