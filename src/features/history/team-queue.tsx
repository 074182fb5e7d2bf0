import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo } from 'react';
import type { HistoryEntry } from '../../model/history/history-types';
import { teamQueueOf } from '../../model/team/team-queue-order';
import { formatCount, formatList } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import { StatusBadge } from '../../components/history/status-badge';
import { useTaskForecast } from '../../components/history/use-task-forecast';

// "Team queue" (team space): what the team's shared pool is busy with, first in first out, by whom, with
// the forecast. The API lists no tasks, so this comes from the team history (every member's studio
// shares what it submits); the poll schedule counts these tasks in the same queue (task-poller.ts).

const SHOWN_AT_MOST = 20;

/** What a member holds back in their studio's queue (not sent yet: the pool does not have it). */
export interface MemberHeld {
  name: string;
  held: number;
  you: boolean;
}

const NO_HELD: readonly MemberHeld[] = [];

export function TeamQueue({
  entries,
  held = NO_HELD,
}: {
  entries: readonly HistoryEntry[];
  held?: readonly MemberHeld[];
}) {
  const { t } = useLingui();
  const headingId = useId();
  const queue = useMemo(() => teamQueueOf(entries), [entries]);
  if (queue.length === 0 && held.length === 0) return null;
  const running = queue.filter((e) => e.status === 'running').length;
  const runningCount = formatCount(running);
  const waitingCount = formatCount(queue.length - running);
  const more = formatCount(queue.length - SHOWN_AT_MOST);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg bg-white p-3 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
    >
      <h3 id={headingId} className="text-xs font-semibold">
        <Trans>Team queue</Trans>{' '}
        <span className="font-normal text-slate-600 tabular-nums dark:text-slate-400">
          <Trans>
            {runningCount} running, {waitingCount} waiting
          </Trans>
        </span>
      </h3>
      <ol className="mt-2 flex flex-col gap-1.5">
        {queue.slice(0, SHOWN_AT_MOST).map((e) => (
          <QueueRow key={e.taskId} entry={e} />
        ))}
      </ol>
      {queue.length > SHOWN_AT_MOST && (
        <p className="mt-1.5 text-xs text-slate-600 dark:text-slate-400">
          <Trans>and {more} more</Trans>
        </p>
      )}
      {held.length > 0 && (
        <p className="mt-1.5 text-xs text-slate-600 dark:text-slate-400" data-testid="team-queue-held">
          <Trans>Held, not sent yet:</Trans>{' '}
          {formatList(held.map((m) => `${m.you ? t`You` : displayText(m.name)} ${formatCount(m.held)}`))}
        </p>
      )}
    </section>
  );
}

function QueueRow({ entry }: { entry: HistoryEntry }) {
  const { t } = useLingui();
  const forecast = useTaskForecast(entry.taskId, true, entry.status);
  return (
    <li className="flex min-w-0 items-center gap-2 text-xs" data-testid="team-queue-row">
      <StatusBadge status={entry.status} />
      <span dir="auto" className="min-w-0 flex-1 truncate">
        <span className="font-medium" translate={entry.by ? 'no' : undefined}>
          {entry.by ? displayText(entry.by.name) : t`You`}
        </span>
        {' · '}
        <span translate="no">{displayText(entry.meta.title)}</span>
      </span>
      {forecast && (
        <span className="shrink-0 text-slate-600 tabular-nums dark:text-slate-400">{forecast}</span>
      )}
    </li>
  );
}
