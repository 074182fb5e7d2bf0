import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CloudOff, Users, UserX } from 'lucide-react';
import type { TeamStatus } from '../../model/team/team-connection';
import type { Member } from '../../model/team/team-members';
import { cn } from '../../lib/cn';
import { formatCount, formatDateTime } from '../../lib/format';
import { reasonText } from './team-reasons';

// One line under the header while the team space is on: online (and how many members are), offline
// since when (work goes on here and is shared on return), or refused and why, in plain words.

/** @internal */
export function teamStatusText(status: TeamStatus, members: readonly Member[]): string {
  switch (status.link) {
    case 'online': {
      const online = formatCount(members.filter((m) => m.online).length);
      return plural(members.length, {
        one: `Team space online · ${online} of # member online`,
        other: `Team space online · ${online} of # members online`,
      });
    }
    case 'connecting':
      return t`Team space: connecting…`;
    case 'offline': {
      const since = formatDateTime(status.since);
      if (!status.reason)
        return t`Team space offline since ${since}. Your changes are kept on this device and shared when it is back.`;
      const reason = reasonText(status.reason);
      return t`Team space offline since ${since}. Your changes are kept on this device and shared when it is back. ${reason}`;
    }
    case 'refused':
      return reasonText(status.reason);
  }
}

export function TeamStatusLine({ status, members }: { status: TeamStatus; members: readonly Member[] }) {
  const { t } = useLingui();
  const Icon = status.link === 'refused' ? UserX : status.link === 'offline' ? CloudOff : Users;
  const trouble = status.link === 'offline' || status.link === 'refused';
  return (
    <p
      role="status"
      aria-label={t`Team space`}
      data-link={status.link}
      className={cn(
        'mx-4 mt-2 flex items-start gap-2 rounded-lg px-3 py-1.5 text-xs ring-1',
        trouble
          ? 'bg-amber-50 text-amber-950 ring-amber-300 dark:bg-amber-950 dark:text-amber-50 dark:ring-amber-800'
          : 'bg-white text-slate-700 ring-slate-200 dark:bg-slate-900 dark:text-slate-300 dark:ring-slate-800',
      )}
    >
      <Icon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>{teamStatusText(status, members)}</span>
    </p>
  );
}
