import type { ReactNode } from 'react';
import { AlertTriangle, Info, XCircle } from 'lucide-react';
import { cn } from '../lib/cn';

type Tone = 'info' | 'warning' | 'error';
const STYLES: Record<Tone, string> = {
  info: 'bg-sky-50 text-sky-900 ring-sky-200 dark:bg-sky-950/60 dark:text-sky-100 dark:ring-sky-900',
  warning:
    'bg-amber-50 text-amber-950 ring-amber-200 dark:bg-amber-950/60 dark:text-amber-100 dark:ring-amber-900',
  error: 'bg-rose-50 text-rose-950 ring-rose-200 dark:bg-rose-950/60 dark:text-rose-100 dark:ring-rose-900',
};
const ICONS = { info: Info, warning: AlertTriangle, error: XCircle };

/** A message box. `title` is the plain-language problem, children the remedy or details. */
export function Alert({
  tone = 'info',
  title,
  children,
  className,
  live = true,
}: {
  tone?: Tone;
  title: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Announce to screen readers when it appears. */
  live?: boolean;
}) {
  const Icon = ICONS[tone];
  return (
    <div
      role={live ? (tone === 'error' ? 'alert' : 'status') : undefined}
      className={cn('flex gap-2.5 rounded-lg p-3 text-sm ring-1 ring-inset', STYLES[tone], className)}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <p className="font-medium">{title}</p>
        {children && <div className="text-[13px] opacity-90">{children}</div>}
      </div>
    </div>
  );
}
