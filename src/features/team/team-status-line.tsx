import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CloudOff, Users, UserX } from 'lucide-react';
import type { TeamSpaceReason } from '../../../contract/team-room';
import { Button } from '../../components/button';
import type { TeamStatus } from '../../model/team/team-connection';
import type { Member } from '../../model/team/team-members';
import type { ShareState } from '../../model/team/team-share';
import { cn } from '../../lib/cn';
import { formatCount, formatDateTime } from '../../lib/format';
import { reasonText } from './team-reasons';

// One line under the header while the team space is on: online (and how many members are), offline
// since when (work goes on here and is shared on return), or refused and why, in plain words; and, when
// it applies, that the room is of a newer version (reload), that the studio stopped joining after a
// second refused change, or that this member's share of the room is full (new items stay here).

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

/** What the line adds to the link's words, or null. @internal */
export function teamStatusNote(
  status: TeamStatus,
  share: ShareState | null,
  stopped: TeamSpaceReason | null,
): string | null {
  if (stopped)
    return t`The team space refused this device's changes again, so the studio stopped joining it. Turn the team space off and on to try again.`;
  if (status.newer)
    return t`The team space holds data of a newer version than this studio reads. Reload the studio to get the newer version.`;
  if (share?.level === 'full')
    return t`Your share of the team space is full: new items stay on this device and are not shared. Free space to share again.`;
  return null;
}

export function TeamStatusLine({
  status,
  members,
  share = null,
  stopped = null,
  onFreeSpace,
}: {
  status: TeamStatus;
  members: readonly Member[];
  /** This member's share of the room, when the server said its limit. */
  share?: ShareState | null;
  /** The studio stopped joining after a second refused change (team-live.ts). */
  stopped?: TeamSpaceReason | null;
  /** Opens "Free space" (shown while the share is nearly full or full). */
  onFreeSpace?: () => void;
}) {
  const { t } = useLingui();
  const Icon = status.link === 'refused' ? UserX : status.link === 'offline' ? CloudOff : Users;
  const note = teamStatusNote(status, share, stopped);
  const trouble = status.link === 'offline' || status.link === 'refused' || note !== null;
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
      <span className="min-w-0 flex-1">
        {teamStatusText(status, members)}
        {note && <> {note}</>}
      </span>
      {onFreeSpace && share && share.level !== 'ok' && (
        <Button size="sm" variant="ghost" className="-my-1 h-6" onClick={onFreeSpace}>
          {t`Free space`}
        </Button>
      )}
    </p>
  );
}
