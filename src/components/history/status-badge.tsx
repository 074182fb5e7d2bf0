import { useLingui } from '@lingui/react';
import { Ban, CheckCircle2, Clock, Loader2, XCircle, type LucideIcon } from 'lucide-react';
import { memo } from 'react';
import type { TaskStatus } from '../../../contract/task';
import { Badge } from '../badge';
import { cn } from '../../lib/cn';
import { statusWord } from '../../model/tasks/status-words';

// The status of a task at a glance: the spec's own word (api-notes §3), a colour and an icon, so it reads
// without colour too.

interface StatusLook {
  tone: 'accent' | 'info' | 'success' | 'danger' | 'neutral';
  icon: LucideIcon;
  /** Tinted tile behind a card's placeholder thumbnail. */
  tile: string;
  spin?: boolean;
}

export const STATUS_LOOK: Record<TaskStatus, StatusLook> = {
  queued: {
    tone: 'accent',
    icon: Clock,
    tile: 'bg-indigo-50 text-indigo-500 dark:bg-indigo-950/60 dark:text-indigo-300',
  },
  running: {
    tone: 'info',
    icon: Loader2,
    spin: true,
    tile: 'bg-sky-50 text-sky-500 dark:bg-sky-950/60 dark:text-sky-300',
  },
  succeeded: {
    tone: 'success',
    icon: CheckCircle2,
    tile: 'bg-emerald-50 text-emerald-500 dark:bg-emerald-950/60 dark:text-emerald-300',
  },
  failed: {
    tone: 'danger',
    icon: XCircle,
    tile: 'bg-rose-50 text-rose-500 dark:bg-rose-950/60 dark:text-rose-300',
  },
  cancelled: {
    tone: 'neutral',
    icon: Ban,
    tile: 'bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500',
  },
};

/** Memoised, as the badge: an icon's SVG is rebuilt only when the status changes. */
export const StatusIcon = memo(function StatusIcon({
  status,
  className,
}: {
  status: TaskStatus;
  className?: string;
}) {
  const { icon: Icon, spin } = STATUS_LOOK[status];
  return <Icon className={cn(spin && 'motion-safe:animate-spin', className)} aria-hidden="true" />;
});

/** Memoised: a live card renders every second, its badge only when the status changes. */
export const StatusBadge = memo(function StatusBadge({ status, id }: { status: TaskStatus; id?: string }) {
  const { i18n } = useLingui();
  return (
    <span id={id} className="inline-flex shrink-0" data-status={status}>
      <Badge tone={STATUS_LOOK[status].tone}>
        <StatusIcon status={status} className="size-3 shrink-0" />
        {statusWord(status, i18n)}
      </Badge>
    </span>
  );
});
