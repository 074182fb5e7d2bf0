import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  useLocale();
  const left = daysLeft(me.key.expiresAt);
  const unbound = isUnbound(me);
  const expiry = me.key.expiresAt ? formatDate(new Date(me.key.expiresAt), { dateStyle: 'medium' }) : '';
  return (
    <>
      {unbound && (
        <Alert tone="error" title={t`This key's project has been deleted.`}>
          <Trans>
            It can no longer create tasks or uploads. Revoke it and create a new key bound to an existing
            project.
          </Trans>
        </Alert>
      )}
      {left !== null && left < 7 && (
        <Alert
          tone="warning"
          title={
            left === 0
              ? t`This key expires today.`
              : plural(left, { one: 'This key expires in # day.', other: 'This key expires in # days.' })
          }
        >
          <Trans>Create a new key before {expiry} to keep working.</Trans>
        </Alert>
      )}
    </>
  );
}

/** The account after connecting: who, how much, how long, and the limits (product-notes §3). */
export function AccountPanel({ initial, onDisconnect }: { initial: Me; onDisconnect: () => void }) {
  const { t } = useLingui();
  const me = useMe(initial);
  const balance = balanceOf(me);
  const { key } = me;
  const { tasksPerMin, uploadsPerMin, uploadPollPerMin } = me.limits;
  const cap = key.dailyCreditCap;
  const unbound = isUnbound(me);
  const remainingToday =
    cap === null ? '' : formatCredits(key.creditsRemainingToday ?? Math.max(0, cap - key.creditsSpentToday));

  return (
    <section aria-labelledby="account-title" className="flex flex-col gap-4 text-sm">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {/* The key's label and the project's name are the service's words, shown as sent (docs/i18n.md). */}
          <h3 id="account-title" dir="auto" translate="no" className="truncate font-semibold">
            {key.label}
          </h3>
          <p className="font-mono text-xs text-slate-500 dark:text-slate-400">{key.prefix}…</p>
        </div>
        <Button variant="secondary" size="sm" onClick={onDisconnect}>
          <LogOut className="size-3.5 rtl:-scale-x-100" aria-hidden="true" />
          <Trans>Disconnect</Trans>
        </Button>
      </div>

      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
          <dt className="text-xs text-slate-500 dark:text-slate-400">
            {balance?.owner === 'team' ? t`Team balance` : t`Balance`}
          </dt>
          <dd className="mt-0.5 text-lg font-semibold tabular-nums" data-testid="balance">
            {balance ? formatCredits(balance.amount) : '—'}
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
          <dt className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>Project</Trans>
          </dt>
          {unbound || !me.project.name ? (
            <dd className="mt-0.5 truncate font-medium">{unbound ? t`Deleted` : '—'}</dd>
          ) : (
            <dd dir="auto" translate="no" className="mt-0.5 truncate font-medium">
              {me.project.name}
            </dd>
          )}
        </div>
      </dl>

      {cap !== null && (
        <div>
          <CapMeter spent={key.creditsSpentToday} cap={cap} />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            <Trans>{remainingToday} left today (resets at midnight UTC)</Trans>
          </p>
        </div>
      )}

      <KeyWarnings me={me} />

      <div>
        <h4 className="text-xs font-medium text-slate-500 dark:text-slate-400">
          <Trans>Limits per minute</Trans>
        </h4>
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs">
          <li>
            <Plural value={tasksPerMin} one="# task" other="# tasks" />
          </li>
          <li>
            <Plural value={uploadsPerMin} one="# upload" other="# uploads" />
          </li>
          <li>
            <Plural value={uploadPollPerMin} one="# upload check" other="# upload checks" />
          </li>
        </ul>
      </div>
    </section>
  );
}
