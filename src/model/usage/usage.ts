import { t } from '@lingui/core/macro';
import { toCsv } from '../../lib/csv-export';
import { typeLabel } from '../category-labels';
import { dayKey, dayStart } from '../../lib/local-day';
import type { HistoryEntry } from '../history/history-types';

// Where the credits went (product-notes §3 "Presets, batches, prompt library, usage"), computed from this
// device's history: per day, per model (or tool, or template), per category and per key; outputs made,
// failure rate, time per model, cost per output. Pure functions over history entries, no React; days are the
// user's local calendar days. Credits are what the service reports as charged (creditsCharged); a task still
// running has not reported its charge yet and counts as pending.
//
// Team space (docs/team-space.md, `tasks`): the history also holds the team's tasks made through the studio,
// each with `by` (the member who made it). Every aggregate counts them; perMember and perMemberModel split
// the credits by member; what compares with this key's own figures (GET /me's spend today, the per-key
// table) counts only this member's tasks (ownEntries).

/** Local midnight of the day `days` days before the day of `now` (0: today's midnight). */
export const startOfDay = (now: number, days = 0): number => dayStart(now, -days);

/**
 * The 90th percentile, nearest-rank: the smallest value with at least 90 % of the values at or below it.
 * @internal
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const mean = (values: readonly number[]): number | null =>
  values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;

/** The credits a task cost: charged when reported, else 0 (see pending). */
const creditsOf = (e: HistoryEntry): number => e.creditsCharged ?? 0;

/** Seconds from creation to completion of a succeeded task, else null. */
const secondsOf = (e: HistoryEntry): number | null =>
  e.status === 'succeeded' && e.completedAt !== null
    ? Math.max(0, (e.completedAt - e.createdAt) / 1000)
    : null;

/** A tool's or a template's tasks, which have no category of the catalog: "Image (AI tools)". */
function otherCategory(e: HistoryEntry): string {
  const type = typeLabel(e.meta.mediaType);
  return e.meta.kind === 'tool'
    ? t({
        message: `${type} (AI tools)`,
        comment: 'Usage, per category: the AI tools that make images, videos…',
      })
    : t({ message: `${type} (templates)`, comment: 'Usage, per category: the templates that make images…' });
}

/** What ran: a model version, a tool or a template; the key groups its tasks. */
function subjectOf(e: HistoryEntry): { key: string; name: string; detail: string; kind: string } {
  const { request, meta } = e;
  if (request.interfaceId)
    return {
      key: `model:${request.interfaceId}@${request.versionId ?? ''}`,
      name: meta.title,
      detail: meta.subtitle,
      kind: 'model',
    };
  if (request.aiTool)
    return { key: `tool:${request.aiTool}`, name: meta.title, detail: t`AI tool`, kind: 'tool' };
  if (request.template)
    return { key: `template:${request.template}`, name: meta.title, detail: t`Template`, kind: 'template' };
  return { key: `other:${meta.title}`, name: meta.title, detail: meta.subtitle, kind: meta.kind };
}

export interface Totals {
  tasks: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  /** Not finished yet: their charge is not reported. */
  pending: number;
  credits: number;
  outputs: number;
  /** failed / (succeeded + failed); null before any finished. Cancelled tasks are not failures. */
  failureRate: number | null;
  /** credits / outputs; null without outputs. */
  costPerOutput: number | null;
}

interface ModelUsage extends Totals {
  key: string;
  name: string;
  detail: string;
  kind: string;
  category: string | null;
  avgSeconds: number | null;
  p90Seconds: number | null;
}

interface CategoryUsage extends Totals {
  category: string;
}

export interface DayUsage {
  day: string;
  /** Local midnight. */
  start: number;
  credits: number;
  tasks: number;
}

export interface UsageSummary {
  totals: Totals;
  perDay: DayUsage[];
  perModel: ModelUsage[];
  perCategory: CategoryUsage[];
  /** Credits charged today (local day) by the tasks in the history. */
  today: number;
}

function totalsOf(entries: readonly HistoryEntry[]): Totals {
  const t: Totals = {
    tasks: entries.length,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    pending: 0,
    credits: 0,
    outputs: 0,
    failureRate: null,
    costPerOutput: null,
  };
  for (const e of entries) {
    if (e.status === 'succeeded') t.succeeded++;
    else if (e.status === 'failed') t.failed++;
    else if (e.status === 'cancelled') t.cancelled++;
    else t.pending++;
    t.credits += creditsOf(e);
    t.outputs += e.status === 'succeeded' ? e.outputs.length : 0;
  }
  const finished = t.succeeded + t.failed;
  t.failureRate = finished ? t.failed / finished : null;
  t.costPerOutput = t.outputs ? t.credits / t.outputs : null;
  // Sums of fractional credits: no 0.30000000000000004.
  t.credits = Math.round(t.credits * 1e6) / 1e6;
  return t;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The entries created in [from, to). */
export const inRange = (entries: readonly HistoryEntry[], from: number, to = Infinity): HistoryEntry[] =>
  entries.filter((e) => e.createdAt >= from && e.createdAt < to);

/**
 * The usage of `entries` over the `days` local days up to and including today (`now`): every
 * aggregate counts the tasks created in those days; perDay has one entry per day, oldest first.
 */
export function summarize(
  entries: readonly HistoryEntry[],
  { now, days }: { now: number; days: number },
): UsageSummary {
  const from = startOfDay(now, days - 1);
  const shown = inRange(entries, from);
  const perDay: DayUsage[] = Array.from({ length: days }, (_, i) => {
    const start = startOfDay(now, days - 1 - i);
    return { day: dayKey(start), start, credits: 0, tasks: 0 };
  });
  const dayIndex = new Map(perDay.map((d, i) => [d.day, i]));
  for (const e of shown) {
    const i = dayIndex.get(dayKey(e.createdAt));
    if (i === undefined) continue;
    perDay[i]!.credits += creditsOf(e);
    perDay[i]!.tasks++;
  }
  for (const d of perDay) d.credits = Math.round(d.credits * 1e6) / 1e6;

  const perModel: ModelUsage[] = [...groupBy(shown, (e) => subjectOf(e).key)].map(([key, group]) => {
    const subject = subjectOf(group[0]!);
    const seconds = group.flatMap((e) => {
      const s = secondsOf(e);
      return s === null ? [] : [s];
    });
    return {
      ...totalsOf(group),
      key,
      name: subject.name,
      detail: subject.detail,
      kind: subject.kind,
      category: group[0]!.meta.category ?? null,
      avgSeconds: mean(seconds),
      p90Seconds: percentile(seconds, 90),
    };
  });
  perModel.sort((a, b) => b.credits - a.credits || b.tasks - a.tasks || a.name.localeCompare(b.name));

  const perCategory: CategoryUsage[] = [...groupBy(shown, (e) => e.meta.category ?? otherCategory(e))].map(
    ([category, group]) => ({ ...totalsOf(group), category }),
  );
  perCategory.sort((a, b) => b.credits - a.credits || a.category.localeCompare(b.category));

  const todayStart = startOfDay(now);
  return {
    totals: totalsOf(shown),
    perDay,
    perModel,
    perCategory,
    today: totalsOf(inRange(entries, todayStart)).credits,
  };
}

// ---- team members ----------------------------------------------------------------------------------

/** The member looking at Usage: the key's id (GET /me) and, in the team space, their display name. */
export interface CurrentMember {
  id: string;
  /** Their display name; "You" when they have none. */
  name?: string | undefined;
}

/** A display name longer than this is cut (it is another member's untrusted text, in tables and CSV). */
const MEMBER_NAME_MAX = 100;

/** Whether the history holds tasks shared from the team space (entries made by a member, `by`). */
export const hasTeamEntries = (entries: readonly HistoryEntry[]): boolean => entries.some((e) => e.by);

/** Made by this member: on this device (no `by`) or on another device of theirs (their own id). */
const isOwn = (e: HistoryEntry, me: CurrentMember): boolean => !e.by || e.by.id === me.id;

/** This member's own tasks: what the service's figures for this key (GET /me) compare with. */
export const ownEntries = (entries: readonly HistoryEntry[], me: CurrentMember): HistoryEntry[] =>
  entries.filter((e) => isOwn(e, me));

function memberName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return t({ message: 'A team member', comment: 'Usage: a member who has no display name' });
  return trimmed.length > MEMBER_NAME_MAX ? `${trimmed.slice(0, MEMBER_NAME_MAX - 1)}…` : trimmed;
}

/** Who made a task: its `by`, else this member (their own tasks, from any of their devices, are "You"). */
function memberOf(e: HistoryEntry, me: CurrentMember): { id: string; name: string; you: boolean } {
  const { by } = e;
  if (!by || by.id === me.id)
    return {
      id: me.id,
      name: me.name?.trim()
        ? memberName(me.name)
        : t({ message: 'You', comment: 'Usage, per member: this member' }),
      you: true,
    };
  return { id: by.id, name: memberName(by.name), you: false };
}

export interface MemberUsage extends Totals {
  memberId: string;
  /** The name on the member's newest task (a member may rename themselves); untrusted text. */
  name: string;
  you: boolean;
}

export interface MemberModelUsage extends MemberUsage {
  /** subjectOf's key, name and detail. */
  modelKey: string;
  modelName: string;
  modelDetail: string;
}

const byCredits = (a: Totals & { name: string }, b: Totals & { name: string }) =>
  b.credits - a.credits || b.tasks - a.tasks || a.name.localeCompare(b.name);

/** One line per member, over the same days as summarize(), most credits first. */
export function perMember(
  entries: readonly HistoryEntry[],
  { now, days, me }: { now: number; days: number; me: CurrentMember },
): MemberUsage[] {
  const shown = inRange(entries, startOfDay(now, days - 1)).sort((a, b) => b.createdAt - a.createdAt);
  return [...groupBy(shown, (e) => memberOf(e, me).id)]
    .map(([memberId, group]) => {
      const who = memberOf(group[0]!, me);
      return { ...totalsOf(group), memberId, name: who.name, you: who.you };
    })
    .sort(byCredits);
}

/** One line per member and model (or tool, or template), over the same days, most credits first. */
export function perMemberModel(
  entries: readonly HistoryEntry[],
  { now, days, me }: { now: number; days: number; me: CurrentMember },
): MemberModelUsage[] {
  const shown = inRange(entries, startOfDay(now, days - 1)).sort((a, b) => b.createdAt - a.createdAt);
  // A member's name is the one on their newest task, in every line of theirs.
  const names = new Map<string, ReturnType<typeof memberOf>>();
  for (const e of shown) {
    const who = memberOf(e, me);
    if (!names.has(who.id)) names.set(who.id, who);
  }
  return [...groupBy(shown, (e) => `${memberOf(e, me).id}\u0000${subjectOf(e).key}`)]
    .map(([, group]) => {
      const who = names.get(memberOf(group[0]!, me).id)!;
      const subject = subjectOf(group[0]!);
      return {
        ...totalsOf(group),
        memberId: who.id,
        name: who.name,
        you: who.you,
        modelKey: subject.key,
        modelName: subject.name,
        modelDetail: subject.detail,
      };
    })
    .sort(byCredits);
}

/** Credits charged today (local day) by these tasks. */
export const creditsToday = (entries: readonly HistoryEntry[], now: number): number =>
  totalsOf(inRange(entries, startOfDay(now))).credits;

export interface KeyUsage {
  connectionId: string;
  tasks: number;
  credits: number;
  today: number;
  /** The newest task's time. */
  lastUsed: number | null;
}

/** One line per connection (key) known on this device, over the same days as summarize(). */
export function perKey(
  histories: ReadonlyMap<string, readonly HistoryEntry[]>,
  { now, days }: { now: number; days: number },
): KeyUsage[] {
  const from = startOfDay(now, days - 1);
  const today = startOfDay(now);
  return [...histories]
    .map(([connectionId, entries]) => {
      const shown = inRange(entries, from);
      return {
        connectionId,
        tasks: shown.length,
        credits: totalsOf(shown).credits,
        today: totalsOf(inRange(entries, today)).credits,
        lastUsed: entries.reduce<number | null>(
          (m, e) => (m === null || e.createdAt > m ? e.createdAt : m),
          null,
        ),
      };
    })
    .sort((a, b) => b.credits - a.credits || (b.lastUsed ?? 0) - (a.lastUsed ?? 0));
}

/** Tick values for an axis from 0 to at least `max`: 0 and 4-5 round steps (1, 2, 2.5 or 5 x 10^n). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2 && ticks.length <= count + 1; v += step)
    ticks.push(Math.round(v * 1e6) / 1e6);
  if (ticks[ticks.length - 1]! < max) ticks.push(Math.round((ticks[ticks.length - 1]! + step) * 1e6) / 1e6);
  return ticks;
}

/**
 * The tasks behind the summary, one line each, as CSV (never the key: the key's label at most). The
 * member column names who made each task ("You", or `me.name`, for this member's own); the key column
 * is blank on another member's tasks (this device knows only its own key's label).
 */
export function usageCsv(
  entries: readonly HistoryEntry[],
  keyLabel: string,
  me: CurrentMember = { id: '' },
): string {
  // Every line of a member carries the name on their newest task, as the tables do.
  const names = new Map<string, string>();
  for (const e of [...entries].sort((a, b) => b.createdAt - a.createdAt)) {
    const who = memberOf(e, me);
    if (!names.has(who.id)) names.set(who.id, who.name);
  }
  return toCsv(
    [
      'created_at',
      'day',
      'key',
      'member',
      'task_id',
      'kind',
      'name',
      'version',
      'category',
      'status',
      'credits_charged',
      'outputs',
      'seconds',
    ],
    [...entries]
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((e) => {
        const subject = subjectOf(e);
        const seconds = secondsOf(e);
        return [
          new Date(e.createdAt).toISOString(),
          dayKey(e.createdAt),
          isOwn(e, me) ? keyLabel : '',
          names.get(memberOf(e, me).id),
          e.taskId,
          subject.kind,
          subject.name,
          subject.kind === 'model' ? subject.detail : '',
          e.meta.category ?? '',
          e.status,
          e.creditsCharged,
          e.status === 'succeeded' ? e.outputs.length : 0,
          seconds === null ? null : Math.round(seconds * 10) / 10,
        ];
      }),
  );
}
