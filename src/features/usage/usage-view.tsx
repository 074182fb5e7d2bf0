import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { useApi } from '../../api/api-context';
import type { Me } from '../../../contract/me';
import { Button } from '../../components/button';
import { CapMeter } from '../../components/cap-meter';
import { Field } from '../../components/field';
import { Select } from '../../components/select';
import { Spinner } from '../../components/spinner';
import { cn } from '../../lib/cn';
import { categoryLabel } from '../../model/category-labels';
import { dayKey } from '../../lib/local-day';
import { saveCsv } from '../../lib/save-file';
import { formatCount, formatCredits, formatPercent, formatSeconds } from '../../lib/format';
import type { HistoryStore } from '../../model/history/history-store';
import type { HistoryEntry } from '../../model/history/history-types';
import { teamMonths, type MonthTotals } from '../../model/team/team-months';
import type { TeamTask } from '../../model/team/team-tasks';
import type { MonthSummary } from '../../../contract/team-history';
import { displayText } from '../../lib/untrusted-text';
import {
  creditsToday,
  hasTeamEntries,
  inRange,
  ownEntries,
  perKey,
  perMember,
  perMemberModel,
  startOfDay,
  summarize,
  usageCsv,
  type CurrentMember,
  type Totals,
} from '../../model/usage/usage';
import {
  allHistories,
  loadKeyLabels,
  rememberKeyLabel,
  type KeyLabels,
} from '../../model/usage/usage-source';
import { CreditsChart } from './credits-chart';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// The Usage view (product-notes §3 "Presets, batches, prompt library, usage"): where this key's credits went,
// from this device's history: per day (a chart and its table), per model, per category and per key; outputs,
// failures, time per model, cost per output; today's spend against the key's daily cap (GET /me); a CSV of
// the tasks behind it. With the team space (docs/team-space.md) the history also holds the team's tasks made
// through the studio (entries with `by`): every figure counts them, "By member" splits them, and what
// compares with this key's own figures (GET /me's spend today, "Per key") counts only this member's own
// tasks. Without team entries the view is the single user's, unchanged.

// Each period twice: the choice's label, and the words after a comma in a table's caption
// ("Usage per model, last 30 days").
const PERIODS: ReadonlyArray<{ days: number; label: MessageDescriptor; inCaption: MessageDescriptor }> = [
  { days: 7, label: msg`Last 7 days`, inCaption: msg`last 7 days` },
  { days: 30, label: msg`Last 30 days`, inCaption: msg`last 30 days` },
  { days: 90, label: msg`Last 90 days`, inCaption: msg`last 90 days` },
];

const percent = (rate: number | null) => (rate === null ? '—' : formatPercent(rate));
const credits = (n: number | null) => (n === null ? '—' : formatCredits(n));
const seconds = (s: number | null) => (s === null ? '—' : formatSeconds(s));

const EMPTY: HistoryEntry[] = [];

const card =
  'rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-800';
// A table wider than a phone scrolls sideways: its box takes the focus, so a keyboard can scroll it.
const scroller = 'mt-2 overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-indigo-500';
const th = 'px-2 py-1.5 text-xs font-medium text-slate-600 dark:text-slate-400';
const td = 'px-2 py-1.5 text-end whitespace-nowrap tabular-nums';
const tr = 'border-t border-slate-100 dark:border-slate-800';
const rowHead = 'px-2 py-1.5 font-normal';

/** The team's sums per month (team space): the server's for what it keeps, and the room's own tasks. */
export interface TeamMonthsSource {
  months: () => Promise<MonthSummary[] | null>;
  live: () => Iterable<TeamTask>;
}

export function UsageView({
  me,
  store,
  memberName,
  teamMonths: monthsSource,
}: {
  me: Me;
  store: HistoryStore | null;
  /** This member's display name in the team space, when they chose one ("You" otherwise). */
  memberName?: string | undefined;
  /** With the team space: the team by month, over its whole history. */
  teamMonths?: TeamMonthsSource | null;
}) {
  const { connectionId } = useApi();
  const { t, i18n } = useLingui();
  const [days, setDays] = useState<number>(30);
  const entries = useSyncExternalStore(store?.subscribe ?? NO_SUBSCRIBE, store?.list ?? (() => EMPTY));
  // "Now" moves on each minute, so today's figures follow the clock past midnight.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const summary = useMemo(() => summarize(entries, { now, days }), [entries, now, days]);
  // A member is a key: GET /me's key id is this member's id in the team space.
  const member: CurrentMember = useMemo(() => ({ id: me.key.id, name: memberName }), [me.key.id, memberName]);
  const team = useMemo(() => hasTeamEntries(entries), [entries]);
  const own = useMemo(() => (team ? ownEntries(entries, member) : entries), [team, entries, member]);
  const ownToday = useMemo(() => creditsToday(own, now), [own, now]);
  const members = useMemo(
    () => (team ? perMember(entries, { now, days, me: member }) : []),
    [team, entries, now, days, member],
  );
  const memberModels = useMemo(
    () => (team ? perMemberModel(entries, { now, days, me: member }) : []),
    [team, entries, now, days, member],
  );

  // Every key used on this device: the tasks store, one connection at a time (never a key, only hashes).
  const [others, setOthers] = useState<Map<string, HistoryEntry[]> | null>(null);
  useEffect(() => {
    rememberKeyLabel(connectionId, me.key.label, me.key.prefix);
  }, [connectionId, me.key.label, me.key.prefix]);
  const labels: KeyLabels = useMemo(
    () => ({ ...loadKeyLabels(), [connectionId]: { label: me.key.label, prefix: me.key.prefix } }),
    [connectionId, me.key.label, me.key.prefix],
  );
  useEffect(() => {
    let live = true;
    void allHistories().then((all) => live && setOthers(all));
    return () => {
      live = false;
    };
  }, [connectionId]);
  const keys = useMemo(() => {
    // A key's own tasks only: the team's, shared from other members, are theirs (By member).
    const histories = new Map([...(others ?? [])].map(([id, list]) => [id, list.filter((e) => !e.by)]));
    histories.set(connectionId, own); // this key's, live
    return perKey(histories, { now, days });
  }, [others, own, connectionId, now, days]);

  const cap = me.key.dailyCreditCap;
  const spent = me.key.creditsSpentToday;
  const chosen = PERIODS.find((p) => p.days === days);
  const period = chosen ? i18n._(chosen.label) : plural(days, { one: '# day', other: '# days' });
  const inCaption = chosen ? i18n._(chosen.inCaption) : period;
  const keyName = `${me.key.label} (${me.key.prefix}…)`;
  // The key's label is the user's text: an element, so <Trans> places it as it is and never reads it for tags.
  const keyText = (
    <span className="font-medium" dir="auto" translate="no">
      {displayText(keyName)}
    </span>
  );
  const spentText = formatCredits(spent);
  const historyToday = formatCredits(summary.today);
  const ownTodayText = formatCredits(ownToday);

  const exportCsv = () => {
    const today = dayKey(now);
    saveCsv(
      usageCsv(inRange(entries, startOfDay(now, days - 1)), keyName, member),
      t({ message: `usage ${today} (${days} days).csv`, comment: 'a file name: keep .csv at the end' }),
    );
  };

  return (
    <main className="flex flex-1 flex-col gap-4 p-4">
      <section aria-labelledby="usage-title" className={card}>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="usage-title" className="text-lg font-semibold">
              <Trans>Usage</Trans>
            </h2>
            {team ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                <Trans>
                  From this device’s history of {keyText} and the tasks your team made through the studio
                  (shared in the team space): tasks made outside the studio are not counted.
                </Trans>
              </p>
            ) : (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                <Trans>From this device’s history of {keyText}: tasks made elsewhere are not counted.</Trans>
              </p>
            )}
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <Field label={t`Period`} className="w-44">
              {(control) => (
                <Select {...control} value={days} onChange={(e) => setDays(Number(e.target.value))}>
                  {PERIODS.map((p) => (
                    <option key={p.days} value={p.days}>
                      {i18n._(p.label)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Button onClick={exportCsv} disabled={summary.totals.tasks === 0}>
              <Download className="size-4" aria-hidden="true" />
              <Trans>Export CSV</Trans>
            </Button>
          </div>
        </div>

        <dl
          className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
          aria-label={t`Totals, ${period}`}
        >
          <Stat label={t`Credits`} testId="usage-credits">
            {formatCredits(summary.totals.credits)}
          </Stat>
          <Stat label={t`Tasks`} testId="usage-tasks">
            {formatCount(summary.totals.tasks)}
          </Stat>
          <Stat label={t`Outputs made`} testId="usage-outputs">
            {formatCount(summary.totals.outputs)}
          </Stat>
          <Stat label={t`Failure rate`}>{percent(summary.totals.failureRate)}</Stat>
          <Stat label={t`Cost per output`}>{credits(summary.totals.costPerOutput)}</Stat>
          <Stat label={t`Still running`}>{formatCount(summary.totals.pending)}</Stat>
        </dl>

        <div className="mt-4 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
          {cap !== null ? (
            <CapMeter spent={spent} cap={cap} testId="usage-cap" />
          ) : (
            <p>
              <Trans>
                Spent today: <span className="font-medium tabular-nums">{spentText}</span>. This key has no
                daily cap.
              </Trans>
            </p>
          )}
          {team ? (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {ownToday !== spent ? (
                <Trans>
                  The service counts {spentText} today for this key; your own tasks in the history count{' '}
                  <span data-testid="usage-today">{ownTodayText}</span> (the difference was spent outside the
                  studio, or on another day by the service’s clock). The other members’ tasks are in the
                  figures above, not in this comparison.
                </Trans>
              ) : (
                <Trans>
                  The service counts {spentText} today for this key; your own tasks in the history count{' '}
                  <span data-testid="usage-today">{ownTodayText}</span>. The other members’ tasks are in the
                  figures above, not in this comparison.
                </Trans>
              )}
            </p>
          ) : (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {summary.today !== spent ? (
                <Trans>
                  The service counts {spentText} today for this key; this device’s history counts{' '}
                  <span data-testid="usage-today">{historyToday}</span> (the difference was spent elsewhere,
                  or on another day by the service’s clock).
                </Trans>
              ) : (
                <Trans>
                  The service counts {spentText} today for this key; this device’s history counts{' '}
                  <span data-testid="usage-today">{historyToday}</span>.
                </Trans>
              )}
            </p>
          )}
        </div>
      </section>

      <section aria-label={t`Credits per day`} className={card}>
        <CreditsChart days={summary.perDay} title={t`Credits per day, ${inCaption}`} />
      </section>

      {monthsSource && (
        <TableSection id="usage-team-months" title={t`The team by month`}>
          <TeamByMonth source={monthsSource} />
        </TableSection>
      )}

      {team && (
        <div className="grid gap-4 lg:grid-cols-2 lg:items-start [&>*]:min-w-0">
          <TableSection id="usage-members" title={t`By member`}>
            {members.length === 0 ? (
              <Empty />
            ) : (
              <UsageTable
                caption={t`Usage per team member, ${inCaption}`}
                columns={[t`Member`, t`Tasks`, t`Failure rate`, t`Credits`]}
              >
                {members.map((m) => (
                  <tr key={m.memberId} className={tr}>
                    <th scope="row" className={rowHead}>
                      <MemberName name={m.name} you={m.you} />
                    </th>
                    <td className={td}>{formatCount(m.tasks)}</td>
                    <td className={td}>{percent(m.failureRate)}</td>
                    <td className={td}>
                      <Share value={m.credits} of={summary.totals.credits} />
                    </td>
                  </tr>
                ))}
              </UsageTable>
            )}
          </TableSection>
          <TableSection id="usage-member-models" title={t`By member and model`}>
            {memberModels.length === 0 ? (
              <Empty />
            ) : (
              <UsageTable
                caption={t`Usage per team member and model, ${inCaption}`}
                columns={[t`Member`, t`Model`, t`Tasks`, t`Failure rate`, t`Credits`]}
                textColumns={2}
                className="min-w-[28rem]"
              >
                {memberModels.map((m) => (
                  <tr key={`${m.memberId} ${m.modelKey}`} className={tr}>
                    <th scope="row" className={rowHead}>
                      <MemberName name={m.name} you={m.you} />
                    </th>
                    <td className="px-2 py-1.5">
                      <span className="block" dir="auto" translate="no">
                        {displayText(m.modelName)}
                      </span>
                      <span
                        className="block text-xs text-slate-600 dark:text-slate-400"
                        dir="auto"
                        translate="no"
                      >
                        {displayText(m.modelDetail)}
                      </span>
                    </td>
                    <td className={td}>{formatCount(m.tasks)}</td>
                    <td className={td}>{percent(m.failureRate)}</td>
                    <td className={td}>{formatCredits(m.credits)}</td>
                  </tr>
                ))}
              </UsageTable>
            )}
          </TableSection>
        </div>
      )}

      <TableSection id="usage-models" title={t`Per model`}>
        {summary.perModel.length === 0 ? (
          <Empty />
        ) : (
          <UsageTable
            caption={t`Usage per model, tool or template, ${inCaption}`}
            columns={[
              t`Model`,
              t`Tasks`,
              t`Outputs`,
              t`Failure rate`,
              t`Average time`,
              t`90th percentile`,
              t`Credits`,
              t`Per output`,
            ]}
            className="min-w-[40rem]"
          >
            {summary.perModel.map((m) => (
              <tr key={m.key} className={tr}>
                <th scope="row" className={rowHead}>
                  <span className="block font-medium" dir="auto" translate="no">
                    {displayText(m.name)}
                  </span>
                  <span
                    className="block text-xs text-slate-600 dark:text-slate-400"
                    dir="auto"
                    translate="no"
                  >
                    {displayText(m.detail)}
                    {m.category ? ` · ${categoryLabel(m.category)}` : ''}
                  </span>
                </th>
                <td className={td}>{formatCount(m.tasks)}</td>
                <td className={td}>{formatCount(m.outputs)}</td>
                <td className={td}>{percent(m.failureRate)}</td>
                <td className={td}>{seconds(m.avgSeconds)}</td>
                <td className={td}>{seconds(m.p90Seconds)}</td>
                <td className={td}>
                  <Share value={m.credits} of={summary.totals.credits} />
                </td>
                <td className={td}>{credits(m.costPerOutput)}</td>
              </tr>
            ))}
          </UsageTable>
        )}
      </TableSection>

      <div className="grid gap-4 lg:grid-cols-2 lg:items-start [&>*]:min-w-0">
        <TableSection id="usage-categories" title={t`Per category`}>
          {summary.perCategory.length === 0 ? (
            <Empty />
          ) : (
            <SmallTable
              caption={t`Usage per category, ${inCaption}`}
              head={t`Category`}
              rows={summary.perCategory.map((c) => ({
                key: c.category,
                name: c.category.includes('/') ? categoryLabel(c.category) : c.category,
                totals: c,
              }))}
              total={summary.totals.credits}
            />
          )}
        </TableSection>

        <TableSection id="usage-keys" title={t`Per key`}>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            <Trans>
              Every key used with this studio on this device. A key is never kept: only its label and prefix,
              as the service shows them, for keys connected since this view existed; others show as “Another
              key”.
            </Trans>
          </p>
          {others === null ? (
            <Spinner label={t`Reading the other keys’ history`} />
          ) : (
            <UsageTable
              caption={t`Usage per key on this device, ${inCaption}`}
              columns={[t`Key`, t`Tasks`, t`Today`, t`Credits`]}
            >
              {keys.map((k, i) => {
                const known = labels[k.connectionId];
                const number = i + 1;
                return (
                  <tr key={k.connectionId} className={tr}>
                    <th scope="row" className={rowHead}>
                      <span className="font-medium" dir="auto" translate={known ? 'no' : undefined}>
                        {known ? displayText(known.label) : t`Another key ${number}`}
                      </span>
                      {known && (
                        <span className="ms-1 font-mono text-xs text-slate-600 dark:text-slate-400">
                          {displayText(known.prefix)}…
                        </span>
                      )}
                      {k.connectionId === connectionId && (
                        <span className="ms-1 text-xs text-slate-600 dark:text-slate-400">
                          <Trans>(this key)</Trans>
                        </span>
                      )}
                    </th>
                    <td className={td}>{formatCount(k.tasks)}</td>
                    <td className={td}>{formatCredits(k.today)}</td>
                    <td className={td}>{formatCredits(k.credits)}</td>
                  </tr>
                );
              })}
            </UsageTable>
          )}
        </TableSection>
      </div>
    </main>
  );
}

/** A member's name (another member's is untrusted text), this member's marked as theirs. */
function MemberName({ name, you }: { name: string; you: boolean }) {
  // The usage model names this member "You" when they chose no name (in the CSV too): shown in the
  // studio's language here.
  const unnamed = you && name === 'You';
  return (
    <>
      <span className="font-medium" dir="auto" translate={unnamed ? undefined : 'no'}>
        {unnamed ? <Trans>You</Trans> : displayText(name)}
      </span>
      {you && !unnamed && (
        <span className="ms-1 text-xs text-slate-600 dark:text-slate-400">
          <Trans>(you)</Trans>
        </span>
      )}
    </>
  );
}

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
      <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Credits with a bar of their share of the total (the bar is decoration: the number says it). */
function Share({ value, of }: { value: number; of: number }) {
  return (
    <span className="flex items-center justify-end gap-2">
      <span
        aria-hidden="true"
        className="hidden h-1.5 w-16 overflow-hidden rounded-full bg-slate-100 sm:block dark:bg-slate-800"
      >
        <span
          className="block h-full bg-indigo-500 dark:bg-indigo-400"
          style={{ width: `${of ? (value / of) * 100 : 0}%` }}
        />
      </span>
      {formatCredits(value)}
    </span>
  );
}

function SmallTable({
  caption,
  head,
  rows,
  total,
}: {
  caption: string;
  head: string;
  rows: Array<{ key: string; name: string; totals: Totals }>;
  total: number;
}) {
  const { t } = useLingui();
  return (
    <UsageTable caption={caption} columns={[head, t`Tasks`, t`Failure rate`, t`Credits`]}>
      {rows.map((r) => (
        <tr key={r.key} className={tr}>
          <th scope="row" className={rowHead}>
            {r.name}
          </th>
          <td className={td}>{formatCount(r.totals.tasks)}</td>
          <td className={td}>{percent(r.totals.failureRate)}</td>
          <td className={td}>
            <Share value={r.totals.credits} of={total} />
          </td>
        </tr>
      ))}
    </UsageTable>
  );
}

/** A table of figures: the first columns name the row (`textColumns`), the others are numbers (right-aligned). */
function UsageTable({
  caption,
  columns,
  textColumns = 1,
  className,
  children,
}: {
  caption: string;
  columns: string[];
  textColumns?: number;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={scroller} tabIndex={0}>
      <table className={cn('w-full text-start text-sm [:where(&_th)]:text-start', className)}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((name, i) => (
              <th key={name} scope="col" className={i < textColumns ? th : `${th} text-end`}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A month of the server's sums (UTC months, as it keeps them), in the studio's language. */
const MONTH_FORMAT: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric', timeZone: 'UTC' };

/**
 * The team by month, over its whole history: the server's sums of what it keeps and the room's tasks, read
 * when the view opens (a few rows a month, whatever the team made).
 */
function TeamByMonth({ source }: { source: TeamMonthsSource }) {
  const { t, i18n } = useLingui();
  const [rows, setRows] = useState<MonthTotals[] | 'loading' | 'error'>('loading');
  useEffect(() => {
    let live = true;
    void source.months().then((stored) => {
      if (live) setRows(stored ? teamMonths(stored, source.live()) : 'error');
    });
    return () => {
      live = false;
    };
  }, [source]);
  const monthName = (month: string) => {
    const [year, index] = month.split('-').map(Number) as [number, number];
    return new Intl.DateTimeFormat(i18n.locale, MONTH_FORMAT).format(Date.UTC(year, index - 1, 1));
  };
  if (rows === 'loading') return <Spinner label={t`Loading the team’s months`} />;
  if (rows === 'error')
    return (
      <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
        <Trans>The team space could not be reached for the team’s months.</Trans>
      </p>
    );
  if (rows.length === 0) return <Empty />;
  return (
    <>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        <Trans>
          Every task the team made through the studio, kept by the team space, by month (UTC): older months
          too, whatever this device’s history holds.
        </Trans>
      </p>
      <UsageTable
        caption={t`The team’s tasks and credits per month`}
        columns={[t`Month`, t`Members`, t`Tasks`, t`Failure rate`, t`Credits`]}
      >
        {rows.map((m) => (
          <tr key={m.month} className={tr} data-testid="team-month">
            <th scope="row" className={rowHead}>
              {monthName(m.month)}
            </th>
            <td className={td}>{formatCount(m.members)}</td>
            <td className={td}>{formatCount(m.tasks)}</td>
            <td className={td}>{percent(m.tasks ? m.failed / m.tasks : null)}</td>
            <td className={td}>{formatCredits(m.credits)}</td>
          </tr>
        ))}
      </UsageTable>
    </>
  );
}

/** A titled card holding one usage table. */
function TableSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`${card} min-w-0`}>
      <h3 id={id} className="text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Empty() {
  return (
    <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
      <Trans>No tasks in this period.</Trans>
    </p>
  );
}
