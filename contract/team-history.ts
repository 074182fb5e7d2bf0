import { z } from 'zod/mini';
import { TEAM_DOC_ROOTS } from './team-doc';

// A team's history at scale (docs/team-space.md "History at scale"): the live document keeps the recent
// window of tasks (the unfinished ones, and the finished ones of the last days up to a count); the
// server moves the rest into its store (SQLite on one node, PostgreSQL for several) and serves it in
// pages, by search, and as a summary per month. Read by the team-space server (server/team-space/
// history-*.ts) and the studio (src/model/team/team-archive.ts). No Yjs here.

/** What stays in the live document: finished tasks younger than `days` days, at most `maxTasks` of them. */
export const LIVE_WINDOW = {
  days: 7,
  maxTasks: 1_000,
} as const;

/**
 * The meta key (root `meta`) under which the server writes the moment before which every finished task
 * has left the document for the store: a studio does not share again a finished task of its own made
 * before it that the document lacks (it is in the store). Written by the server only.
 */
export const ARCHIVED_BEFORE = 'archivedBefore';

/** The HTTP routes, under the team space's path (e.g. /sync/history). The key goes in Authorization. */
export const TEAM_HISTORY_ROUTES = {
  /** GET: a page of tasks, newest first (HistoryPageQuery in the query string). */
  tasks: '/history',
  /** GET: the summary per month and member (MonthSummary[]). */
  months: '/history/months',
} as const;

/** The most tasks one page answers. */
export const MAX_PAGE = 500;
/** The longest search text. */
const MAX_QUERY_LENGTH = 200;

/**
 * Where a page ends: the creation time and task id of its last task (pages are ordered by both, newest
 * first, so tasks made in the same millisecond are never skipped or repeated).
 */
export const encodeCursor = (createdAt: number, taskId: string): string => `${createdAt}~${taskId}`;

/**
 * A cursor at a moment: the page it starts holds the tasks made before `time` (the last millisecond before
 * it, after every task id made then: ids compare by bytes, and no task id reaches U+FFFF).
 */
export const cursorBefore = (time: number): string => encodeCursor(Math.max(0, time - 1), '\uffff');

export function decodeCursor(cursor: string): { createdAt: number; taskId: string } | null {
  const at = cursor.indexOf('~');
  if (at <= 0) return null;
  const createdAt = Number(cursor.slice(0, at));
  const taskId = cursor.slice(at + 1);
  if (!Number.isSafeInteger(createdAt) || createdAt < 0 || !taskId || taskId.length > 200) return null;
  return { createdAt, taskId };
}

export const HistoryPageQuery = z.object({
  /** The cursor of the page before (its `next`); absent for the newest page. */
  before: z.optional(z.string().check(z.maxLength(260))),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_PAGE))),
  /** Only this member's tasks. */
  by: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  /** Every word in the prompt or the model's title (as the studio's own search). */
  q: z.optional(z.string().check(z.maxLength(MAX_QUERY_LENGTH))),
  /** Only tasks made in this month (YYYY-MM, UTC). */
  month: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/))),
});
export type HistoryPageQuery = z.infer<typeof HistoryPageQuery>;

/**
 * What the team said about one stored task's outputs, moved out of the document with it or after it
 * (docs/team-space.md "History at scale"): each member's star and rating and each comment, as the document
 * held them (the studio parses them as it parses the document's). Written by the server only.
 */
export const TaskAttachments = z.object({
  taskId: z.string(),
  /** `${memberId}|${outputKey}` -> that member's judgement (a blank one is never kept). */
  judgements: z.record(z.string(), z.unknown()),
  /** comment id -> the comment as JSON (a thread moves whole). */
  comments: z.record(z.string(), z.unknown()),
});
export type TaskAttachments = z.infer<typeof TaskAttachments>;

export interface HistoryPage {
  /** Task records as the document held them (the studio parses each with its own schema). */
  tasks: unknown[];
  /** The cursor for the next page, or null at the end. */
  next: string | null;
  /** What was said about this page's tasks, for those that have any. */
  attached: TaskAttachments[];
}

/** One member's tasks in one month (UTC), kept by the store as tasks arrive. */
export const MonthSummary = z.object({
  month: z.string(),
  by: z.string(),
  tasks: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  credits: z.number(),
});
export type MonthSummary = z.infer<typeof MonthSummary>;

export const HistoryPageAnswer = z.object({
  tasks: z.array(z.unknown()),
  next: z.nullable(z.string()),
  // Absent from a server before judgements and comments moved with their tasks.
  attached: z._default(z.array(TaskAttachments), []),
});
export const MonthsAnswer = z.object({ months: z.array(MonthSummary) });

/**
 * The month (UTC) of a time: YYYY-MM.
 * @internal
 */
export const monthOf = (time: number): string => new Date(time).toISOString().slice(0, 7);

/** A YYYY-MM month (UTC) as times: its first millisecond, and the next month's. */
export function monthRangeOf(month: string): { from: number; to: number } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { from: Date.UTC(y, m - 1, 1), to: Date.UTC(y, m, 1) };
}

/**
 * What one task adds to its month's summary row: the server's rows are sums of these, and the studio adds
 * the room's own tasks to them the same way.
 */
export function monthContribution(t: {
  createdAt: number;
  by: string;
  status: string;
  credits: number;
}): MonthSummary {
  return {
    month: monthOf(t.createdAt),
    by: t.by,
    tasks: 1,
    succeeded: t.status === 'succeeded' ? 1 : 0,
    failed: t.status === 'failed' ? 1 : 0,
    credits: t.credits,
  };
}

/** The server's watermark (ARCHIVED_BEFORE) in a room's document: 0 before its first move. */
export function archivedBeforeOf(doc: { getMap(name: string): { get(key: string): unknown } }): number {
  const v = doc.getMap(TEAM_DOC_ROOTS.meta).get(ARCHIVED_BEFORE);
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** The words of a search, lowercased (the store and the studio split alike). */
export const searchWords = (q: string): string[] =>
  q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 16);
