import { Plural, Trans } from '@lingui/react/macro';
import { EyeOff, RotateCcw, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SkippedEntry } from '../../api/client';
import { toApiError } from '../../api/errors';
import { Alert } from '../../components/alert';
import { ServiceMessage } from '../../components/service-message';
import { Button } from '../../components/button';

// The loading, empty, error and "some entries hidden" states shared by the three catalog tabs.

/** Placeholder cards while a list loads; screen readers hear the label once. */
export function CatalogLoading({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div
          key={i}
          aria-hidden="true"
          className="flex gap-3 rounded-xl bg-white p-3 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
        >
          <div className="size-8 shrink-0 rounded-md bg-slate-200 motion-safe:animate-pulse dark:bg-slate-800" />
          <div className="flex flex-1 flex-col gap-2 py-0.5">
            <div className="h-3 w-2/5 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-slate-800" />
            <div className="h-3 w-4/5 rounded bg-slate-100 motion-safe:animate-pulse dark:bg-slate-800/70" />
          </div>
        </div>
      ))}
    </div>
  );
}

/** An ApiError's plain-language message and its remedy, with a way to try again. */
export function CatalogError({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  /** Replaces the message as the headline; the message then moves under it. */
  title?: string;
}) {
  const apiError = toApiError(error);
  return (
    <Alert tone="error" title={title ?? apiError.message}>
      {title && <p>{apiError.message}</p>}
      {apiError.remedy && <p>{apiError.remedy}</p>}
      <ServiceMessage text={apiError.serverMessage} />
      {onRetry && (
        <Button size="sm" variant="secondary" className="mt-2" onClick={onRetry}>
          <RotateCcw className="size-3.5" aria-hidden="true" />
          <Trans>Try again</Trans>
        </Button>
      )}
    </Alert>
  );
}

export function CatalogEmpty({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
      <SearchX className="size-5 text-slate-400 dark:text-slate-500" aria-hidden="true" />
      <div className="min-w-0 wrap-anywhere">{children}</div>
      {action}
    </div>
  );
}

/** a bad catalog entry is skipped by the client; say so quietly rather than hide it silently. */
export function SkippedNotice({ skipped }: { skipped: readonly SkippedEntry[] | number }) {
  const count = typeof skipped === 'number' ? skipped : skipped.length;
  if (count === 0) return null;
  return (
    <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
      <EyeOff className="size-3.5 shrink-0" aria-hidden="true" />
      <Plural
        value={count}
        one="# entry could not be read and is hidden."
        other="# entries could not be read and are hidden."
      />
    </p>
  );
}
