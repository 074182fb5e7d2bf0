import { t } from '@lingui/core/macro';
import type { TeamSpaceReason } from '../../../contract/team-room';
import { Button } from '../../components/button';
import { notifyWarning } from '../../components/notices';
import type { RefusalOutcome } from '../../model/team/team-live';
import { reasonText } from './team-reasons';

// The team space's notices, through the studio's one notice system: a change the server refused (and
// what the studio did about it), and a member's share of the room nearly full.

/** The server refused a change of this device's: why, and that the studio joins again, or stopped. */
export function notifyChangeRefused(reason: TeamSpaceReason, outcome: RefusalOutcome): void {
  notifyWarning(reasonText(reason), {
    id: 'team-change-refused',
    onPage: true,
    detail:
      outcome === 'rejoining'
        ? t`The studio dropped this device's copy of the team space and is joining it again. Your history, stars, presets and prompts on this device are kept.`
        : t`It was refused again, so the studio stopped joining the team space. Turn the team space off and on to try again; everything on this device is kept.`,
  });
}

/** The member's share of the room passed 80 %: said once per session, with "Free space". */
export function notifyShareNearlyFull(onFreeSpace: () => void): void {
  notifyWarning(t`Your share of the team space is nearly full.`, {
    id: 'team-share',
    onPage: true,
    detail: (
      <span className="mt-1 flex flex-col items-start gap-2">
        <span>{t`Delete some of your shared prompts or tasks' copies from the team before it is full: then new items stay on this device only.`}</span>
        <Button size="sm" onClick={onFreeSpace}>
          {t`Free space`}
        </Button>
      </span>
    ),
  });
}
