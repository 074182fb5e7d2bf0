import { z } from 'zod/mini';
import { fromBase64Url, toBase64Url } from '../../lib/base64url';
import { db } from '../db';
import { writeNow } from '../history/history-persistence';
import { ParamValueSchema } from '../../../contract/task';
import { TEAM_DOC_CRITERIA } from '../../../contract/team-doc';

// Compare boards (product-notes §3 "Compare"): one prompt x many models, kept per connection in IndexedDB.
// A board's setup (models, versions, params, prompts; never a key) also travels as a link.

const ParamsSchema = z.record(z.string(), ParamValueSchema);

export const MAX_COLUMNS = 8;
export const MIN_COLUMNS = 2;
/** A board of 8 models x 20 prompts is what a team evaluating on its own prompts runs (160 cells). */
export const MAX_ROWS = 20;

export const ColumnSchema = z.object({
  modelId: z.string().check(z.minLength(1)),
  versionId: z.string().check(z.minLength(1)),
});
export type Column = z.infer<typeof ColumnSchema>;
const RowSchema = z.object({ id: z.string().check(z.minLength(1)), prompt: z.string() });
export type Row = z.infer<typeof RowSchema>;

const BoardSetupSchema = z.object({
  /** "image/default": every column is a model of this category. */
  category: z.string().check(z.minLength(1)),
  columns: z.array(ColumnSchema).check(z.maxLength(MAX_COLUMNS)),
  rows: z.array(RowSchema).check(z.minLength(1), z.maxLength(MAX_ROWS)),
  /** Values of the params every chosen model has (same id and type). */
  shared: z._default(ParamsSchema, {}),
  /** Values of the params only some models have, by column key. */
  perColumn: z._default(z.record(z.string(), ParamsSchema), {}),
});
export type BoardSetup = z.infer<typeof BoardSetupSchema>;

export const CellSchema = z.object({
  idempotencyKey: z.string(),
  /** Set once POST /tasks answered (or found in the history after a reload). */
  taskId: z.optional(z.string()),
  /** The exact body sent: a cell whose inputs changed since is shown as such and runs again. */
  request: z.string(),
  runAt: z.number(),
});
export type Cell = z.infer<typeof CellSchema>;

/** The most decisions one board keeps (each revision is one). */
export const MAX_DECISIONS = 200;
export const MAX_DECISION_REASON = 2_000;

/**
 * A board's decision: the model chosen (a column's key), why, by whom (a member id; '' on this device
 * alone) and when. A revision is a new decision: the history stays.
 */
export const DecisionSchema = z.object({
  column: z.string().check(z.minLength(1), z.maxLength(300)),
  reason: z.string().check(z.maxLength(MAX_DECISION_REASON)),
  by: z.string().check(z.maxLength(200)),
  at: z.number(),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** The most criteria one board names (the team space's bound). */
export const MAX_CRITERIA = TEAM_DOC_CRITERIA.maxCriteria;
export const MAX_CRITERION_NAME = TEAM_DOC_CRITERIA.maxNameLength;

/** What a board's cells are scored on, 1-5 each (product-notes "Criteria"). */
export const CriterionSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.maxLength(MAX_CRITERION_NAME)),
});
export type Criterion = z.infer<typeof CriterionSchema>;

const ScoreSchema = z.int().check(z.gte(1), z.lte(5));

/** One member's scores on one board: cell key -> criterion id -> 1..5; `at` the last change. */
export const ScoreSheetSchema = z.object({
  cells: z.record(z.string(), z.record(z.string(), ScoreSchema)),
  at: z.number(),
});
export type ScoreSheet = z.infer<typeof ScoreSheetSchema>;

/** The member whose scores a board kept on this device alone are (no team: no member id). */
export const THIS_DEVICE = '';

/** `sheet` with one cell's score on one criterion set (a score of null takes it back). */
export function withScore(
  sheet: ScoreSheet | undefined,
  cell: string,
  criterion: string,
  score: number | null,
  at: number,
): ScoreSheet {
  const cells = { ...sheet?.cells };
  const scores = { ...cells[cell] };
  if (score === null) delete scores[criterion];
  else scores[criterion] = ScoreSchema.parse(score);
  if (Object.keys(scores).length === 0) delete cells[cell];
  else cells[cell] = scores;
  return { cells, at };
}

export const BoardSchema = z.object({
  id: z.string().check(z.minLength(1)),
  connectionId: z.string().check(z.minLength(1)),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  setup: BoardSetupSchema,
  /** By cell key (rowId + column key). */
  cells: z._default(z.record(z.string(), CellSchema), {}),
  /** The favourite column key of each row. */
  favourites: z._default(z.record(z.string(), z.string()), {}),
  notes: z._default(z.record(z.string(), z.string()), {}),
  /**
   * Blind comparison (product-notes §3 "Compare"): model names hidden and each row's columns shuffled until
   * Reveal.
   */
  blind: z._default(z.boolean(), false),
  /** Every decision made on the board, in the order made (currentDecision reads the one in force). */
  decisions: z._default(z.array(DecisionSchema).check(z.maxLength(MAX_DECISIONS)), []),
  /** What its cells are scored on (anyone of a team names them). */
  criteria: z._default(z.array(CriterionSchema).check(z.maxLength(MAX_CRITERIA)), []),
  /** Each member's scores (THIS_DEVICE on a board of this device alone), each member's own. */
  scores: z._default(z.record(z.string(), ScoreSheetSchema), {}),
});
export type Board = z.infer<typeof BoardSchema>;

/** The decision in force: the latest made (of two at the same moment, the later in the list). */
export function currentDecision(decisions: readonly Decision[]): Decision | null {
  let current: Decision | null = null;
  for (const d of decisions) if (!current || d.at >= current.at) current = d;
  return current;
}

export const columnKey = (c: Column): string => `${c.modelId}@${c.versionId}`;
export const cellKey = (rowId: string, colKey: string): string => `${rowId}|${colKey}`;

export const newId = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

export function emptySetup(category: string): BoardSetup {
  return { category, columns: [], rows: [{ id: newId(), prompt: '' }], shared: {}, perColumn: {} };
}

// ---- storage --------------------------------------------------------------------------------------

const byConnection = (connectionId: string) =>
  IDBKeyRange.bound([connectionId, -Infinity], [connectionId, Infinity]);

/** This connection's boards, most recently changed first; records that do not parse are skipped. */
export async function listBoards(connectionId: string): Promise<Board[]> {
  const raw = await (await db()).getAllFromIndex('boards', 'byConnection', byConnection(connectionId));
  return raw
    .map((r) => BoardSchema.safeParse(r))
    .flatMap((p) => (p.success ? [p.data] : []))
    .sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function getBoard(connectionId: string, id: string): Promise<Board | null> {
  const parsed = BoardSchema.safeParse(await (await db()).get('boards', [connectionId, id]));
  return parsed.success ? parsed.data : null;
}

// Every save and delete is announced once it is on disk, so a list of boards shown beside the board being
// edited reads again and never goes stale (a board is saved on every change; the list is a few records).
type BoardsListener = (connectionId: string) => void;
const boardsListeners = new Set<BoardsListener>();

/** Calls `listener` with the connection whose boards changed, after each save or delete. */
export function subscribeBoards(listener: BoardsListener): () => void {
  boardsListeners.add(listener);
  return () => boardsListeners.delete(listener);
}

const boardsChanged = (connectionId: string) => boardsListeners.forEach((l) => l(connectionId));

/** Written at once (writeNow): a board named, edited or run just before a reload is still there after it. */
export async function saveBoard(board: Board): Promise<void> {
  await writeNow('boards', (store) => [store.put(board)]);
  boardsChanged(board.connectionId);
}

export async function deleteBoard(connectionId: string, id: string): Promise<void> {
  await writeNow('boards', (store) => [store.delete([connectionId, id])]);
  boardsChanged(connectionId);
}

// ---- share links ----------------------------------------------------------------------------------

/** The setup as a URL-safe string: models, versions, params and prompts; nothing else of the board. */
export function encodeSetup(setup: BoardSetup): string {
  return toBase64Url(JSON.stringify({ v: 1, ...BoardSetupSchema.parse(setup) }));
}

/** The setup of a shared link, or null when it is not one (a link is untrusted input). */
export function decodeSetup(encoded: string): BoardSetup | null {
  try {
    const parsed = BoardSetupSchema.safeParse(JSON.parse(fromBase64Url(encoded)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
