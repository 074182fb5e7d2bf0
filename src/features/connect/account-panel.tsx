import { LogOut } from 'lucide-react';
import type { Me } from '../../../contract/me';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CapMeter } from '../../components/cap-meter';
import { formatCredits, formatDate } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { balanceOf, daysLeft, isUnbound } from './account-facts';
import { useMe } from './use-me';

/** Plain-language warnings about the key itself, shown where they cannot be missed. */
export function KeyWarnings({ me }: { me: Me }) {
  useLocale();
  const left = daysLeft(me.key.expiresAt);
  const unbound = isUnbound(me);
  return (
    <>
      {unbound && (
        <Alert tone="error" title="This key's project has been deleted.">
          It can no longer create tasks or uploads. Revoke it and create a new key bound to an existing
          project.
        </Alert>
      )}
      {left !== null && left < 7 && (
        <Alert
          tone="warning"
          title={
            left === 0
              ? 'This key expires today.'
              : `This key expires in ${left} day${left === 1 ? '' : 's'}.`
          }
        >
          Create a new key before {formatDate(new Date(me.key.expiresAt!), { dateStyle: 'medium' })} to keep
          working.
        </Alert>
      )}
    </>
  );
}

/** The account after connecting: who, how much, how long, and the limits (product-notes §3). */
export function AccountPanel({ initial, onDisconnect }: { initial: Me; onDisconnect: () => void }) {
  const me = useMe(initial);
  const balance = balanceOf(me);
  const { key } = me;
  const cap = key.dailyCreditCap;
  const unbound = isUnbound(me);

  return (
    <section aria-labelledby="account-title" className="flex flex-col gap-4 text-sm">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id="account-title" className="truncate font-semibold">
            {key.label}
          </h3>
          <p className="font-mono text-xs text-slate-500 dark:text-slate-400">{key.prefix}…</p>
        </div>
        <Button variant="secondary" size="sm" onClick={onDisconnect}>
          <LogOut className="size-3.5 rtl:-scale-x-100" aria-hidden="true" />
          Disconnect
        </Button>
      </div>

      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
          <dt className="text-xs text-slate-500 dark:text-slate-400">
            {balance?.owner === 'team' ? 'Team balance' : 'Balance'}
          </dt>
          <dd className="mt-0.5 text-lg font-semibold tabular-nums" data-testid="balance">
            {balance ? formatCredits(balance.amount) : '—'}
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
          <dt className="text-xs text-slate-500 dark:text-slate-400">Project</dt>
          <dd className="mt-0.5 truncate font-medium">{unbound ? 'Deleted' : (me.project.name ?? '—')}</dd>
        </div>
      </dl>

      {cap !== null && (
        <div>
          <CapMeter spent={key.creditsSpentToday} cap={cap} />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {formatCredits(key.creditsRemainingToday ?? Math.max(0, cap - key.creditsSpentToday))} left today
            (resets at midnight UTC)
          </p>
        </div>
      )}

      <KeyWarnings me={me} />

      <div>
        <h4 className="text-xs font-medium text-slate-500 dark:text-slate-400">Limits per minute</h4>
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs">
          <li>{me.limits.tasksPerMin} tasks</li>
          <li>{me.limits.uploadsPerMin} uploads</li>
          <li>{me.limits.uploadPollPerMin} upload checks</li>
        </ul>
      </div>
    </section>
  );
}
