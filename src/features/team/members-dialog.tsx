import { Trans, useLingui } from '@lingui/react/macro';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import type { Member } from '../../model/team/team-members';

// "Members": who is in the team space (everyone who turned it on with a key of this team) and who is
// online now. Names are untrusted text, rendered as text.

export function MembersButton({ members }: { members: readonly Member[] }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const online = members.filter((m) => m.online).length;
  const onlineCount = formatCount(online);
  return (
    <>
      <Button
        variant="secondary"
        className="max-sm:px-2"
        onClick={() => setOpen(true)}
        // The name holds the visible text ("Members 2"), as axe's label-content-name-mismatch asks.
        aria-label={t`Members: ${onlineCount} online`}
      >
        <Users className="size-4" aria-hidden="true" />
        <span className="hidden sm:inline">
          <Trans>Members</Trans>
        </span>{' '}
        <span
          className="rounded-full bg-emerald-600 px-1.5 text-xs text-white tabular-nums"
          aria-hidden="true"
        >
          {onlineCount}
        </span>
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t`Members`}
        description={t`Everyone in this team space, and who is online now.`}
      >
        <MembersList members={members} />
      </Dialog>
    </>
  );
}

function MembersList({ members }: { members: readonly Member[] }) {
  const { t } = useLingui();
  if (members.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <Trans>No one yet.</Trans>
      </p>
    );
  return (
    <ul aria-label={t`Members`} className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800">
      {members.map((m) => (
        <li key={m.id} className="flex items-center justify-between gap-3 py-2 text-sm">
          <span dir="auto" translate="no" className="min-w-0 truncate font-medium">
            {displayText(m.name)}
            {m.you && (
              <span className="font-normal text-slate-500 dark:text-slate-400">
                {' '}
                <Trans>(you)</Trans>
              </span>
            )}
          </span>
          <span className="flex shrink-0 items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
            <span
              aria-hidden="true"
              className={cn(
                'size-2 rounded-full',
                m.online ? 'bg-emerald-500' : 'bg-slate-300 dark:bg-slate-600',
              )}
            />
            {m.online ? t`online` : t`offline`}
          </span>
        </li>
      ))}
    </ul>
  );
}
