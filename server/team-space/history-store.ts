import { isTerminal, type TaskStatus } from '../../contract/task';
import {
  encodeCursor,
  searchWords,
  type HistoryPage,
  type HistoryPageQuery,
  type MonthSummary,
  type TaskAttachments,
} from '../../contract/team-history';

// Where a team's finished tasks go when they leave the live document (docs/team-space.md "History at
// scale"): one row per task with its record as JSON, a search index of its words, and a summary row per
// month and member kept as tasks arrive (Usage for a year reads 12 rows per member, never a year of tasks).
// Two stores implement it: SQLite on one node (history-sqlite.ts), PostgreSQL for several
// (history-postgres.ts). Both are written only by the server (archive.ts) and read by members through
// the team space's HTTP routes (history-routes.ts).

/** A task record as the store keeps it: the fields it orders, filters and sums by, and the whole record. */
export interface StoredTask {
  taskId: string;
  createdAt: number;
  by: string;
  status: string;
  credits: number;
  /** The prompt and the model's title, for search. */
  text: string;
  /** The record as the document held it. */
  record: Record<string, unknown>;
}

export interface HistoryStore {
  /**
   * Keeps these records of the room's (one transaction), each in place of the row it had, except that a
   * finished row is never replaced by an unfinished one; the month summaries follow.
   */
  put(room: string, tasks: readonly StoredTask[]): Promise<void>;
  /**
   * Merges what was said about stored tasks into their rows (one transaction; mergeAttachments), each
   * item with the row of its task. Answers the task ids that have a row: the others' items are not kept.
   * A later put of the same task keeps what is attached.
   */
  attach(room: string, items: readonly TaskAttachments[]): Promise<Set<string>>;
  /** A page of the room's tasks, newest first, with what is attached to them. */
  page(room: string, query: HistoryPageQuery): Promise<HistoryPage>;
  /** The room's summary rows, by month then member. */
  months(room: string): Promise<MonthSummary[]>;
  /** How many tasks of the room the store holds. */
  count(room: string): Promise<number>;
  close(): Promise<void>;
}

/** A stored status is any text a studio wrote: finished when it is one of the API's terminal ones. */
export const isFinished = (status: string) => isTerminal(status as TaskStatus);

/** Whether `next` may replace the stored row `before`: never a finished one by an unfinished one. */
export const replaces = (before: { status: string } | undefined, next: { status: string }) =>
  !before || !isFinished(before.status) || isFinished(next.status);

/** A record of the document as the store keeps it; undefined when it lacks what the store needs. */
export function storedTaskOf(record: unknown): StoredTask | undefined {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const r = record as Record<string, unknown>;
  const { taskId, createdAt, by, status } = r;
  if (typeof taskId !== 'string' || typeof by !== 'string' || typeof status !== 'string') return undefined;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
  const credits = typeof r.creditsCharged === 'number' ? r.creditsCharged : 0;
  const request = r.request as { params?: Record<string, unknown> } | undefined;
  const prompt = typeof request?.params?.prompt === 'string' ? request.params.prompt : '';
  const meta = r.meta as { title?: unknown } | undefined;
  const title = typeof meta?.title === 'string' ? meta.title : '';
  return {
    taskId,
    createdAt: Math.trunc(createdAt),
    by,
    status,
    credits,
    text: `${prompt}\n${title}`.toLowerCase(),
    record: r,
  };
}

/** The search's words, as both stores match them: each must be in the text (a substring). */
export const wordsOf = (query: HistoryPageQuery) => searchWords(query.q ?? '');

/** A judgement as the document holds it: blank when it neither stars nor rates (an un-star). */
export const isBlankJudgement = (value: unknown): boolean => {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return v.starred !== true && typeof v.rating !== 'number';
};

const judgementOf = (value: unknown): { blank: boolean; updatedAt: number } => {
  const at = (value as { updatedAt?: unknown } | null)?.updatedAt;
  return {
    blank: isBlankJudgement(value),
    updatedAt: typeof at === 'number' && Number.isFinite(at) ? at : 0,
  };
};

/**
 * What a stored task's row keeps after `next` arrives: a judgement replaces the one under its key unless
 * the kept one is newer, and a blank one (an un-star) removes it; a comment replaces the one of its id.
 */
export function mergeAttachments(
  before: TaskAttachments | undefined,
  next: TaskAttachments,
): TaskAttachments {
  const judgements: Record<string, unknown> = { ...before?.judgements };
  for (const [key, value] of Object.entries(next.judgements)) {
    const kept = key in judgements ? judgementOf(judgements[key]) : undefined;
    const incoming = judgementOf(value);
    if (kept && kept.updatedAt > incoming.updatedAt) continue;
    if (incoming.blank) delete judgements[key];
    else judgements[key] = value;
  }
  return { taskId: next.taskId, judgements, comments: { ...before?.comments, ...next.comments } };
}

/**
 * The most one task's row keeps of what was said about it, as JSON (some 800 comments): a member writing
 * thousands of comments on one output, week after week, would otherwise grow one row, and every page
 * that holds its task, without end. What would pass it is not kept: it stays in the document, where it
 * counts against its writers' share.
 */
export const MAX_ATTACHED_BYTES = 256 * 1024;

/** The most one page answers, as JSON: a page stops early (its cursor where it stopped) past it. */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** mergeAttachments, or null when the row would pass MAX_ATTACHED_BYTES. */
export function mergeWithin(
  before: TaskAttachments | undefined,
  next: TaskAttachments,
): TaskAttachments | null {
  const merged = mergeAttachments(before, next);
  return storedAttachments(merged).length > MAX_ATTACHED_BYTES ? null : merged;
}

/** What a row's "attached" column holds: JSON of the judgements and comments, or null for none. */
export const storedAttachments = (a: TaskAttachments): string =>
  JSON.stringify({ judgements: a.judgements, comments: a.comments });

/** A page's rows as both stores read them, newest first (one more than the limit when there are more). */
export interface PageRow {
  record: string;
  created_at: number | string;
  task_id: string;
  attached: string | null;
}

/**
 * The page the rows make: at most `limit` tasks and MAX_PAGE_BYTES (always one task), its cursor after
 * the last one answered when more follow.
 */
export function pageOf(rows: readonly PageRow[], limit: number): HistoryPage {
  let count = 0;
  let bytes = 0;
  for (const row of rows.slice(0, limit)) {
    bytes += row.record.length + (row.attached?.length ?? 0);
    if (count > 0 && bytes > MAX_PAGE_BYTES) break;
    count++;
  }
  const shown = rows.slice(0, count);
  const last = shown.at(-1);
  return {
    tasks: shown.map((r) => JSON.parse(r.record) as unknown),
    next: rows.length > count && last ? encodeCursor(Number(last.created_at), last.task_id) : null,
    attached: shown.flatMap((r) => {
      const a = attachmentsOf(r.task_id, r.attached);
      return a && hasAttachments(a) ? [a] : [];
    }),
  };
}

/** Whether a row's attachments hold anything (an empty one is not sent). */
export const hasAttachments = (a: TaskAttachments): boolean =>
  Object.keys(a.judgements).length > 0 || Object.keys(a.comments).length > 0;

/** A row's stored attachments (JSON of judgements and comments) read back: undefined when it holds none. */
export function attachmentsOf(taskId: string, text: string | null): TaskAttachments | undefined {
  if (text === null) return undefined;
  const { judgements, comments } = JSON.parse(text) as Partial<TaskAttachments>;
  return { taskId, judgements: judgements ?? {}, comments: comments ?? {} };
}
