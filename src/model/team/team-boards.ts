import * as Y from 'yjs';
import { z } from 'zod/mini';
import {
  BoardSchema,
  CellSchema,
  ColumnSchema,
  CriterionSchema,
  DecisionSchema,
  MAX_COLUMNS,
  MAX_CRITERIA,
  MAX_DECISIONS,
  MAX_ROWS,
  ScoreSheetSchema,
  columnKey,
  withScore,
  type Board,
  type Cell,
  type Column,
  type Criterion,
  type Decision,
  type ScoreSheet,
} from '../boards/boards';
import { ParamValueSchema } from '../../../contract/task';
import { schemaVersionOf } from '../../../contract/team-doc';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { Listeners } from '../../lib/store';

// Compare boards shared by a team (docs/team-space.md, `boards`). Each board is a
// Y.Map under the `boards` root, split into parts fine enough that two members' concurrent edits of
// different parts both survive the merge (Yjs merges; we only choose the shape):
//
//   id, category, createdAt, updatedAt, createdBy, blind   plain values (last write wins)
//   name                                                   plain string (a rename is one choice, not text two people co-type)
//   columns     Y.Array<{ modelId, versionId }>            adding and removing columns merge
//   rows        Y.Array<Y.Map { id, prompt: Y.Text }>      rows added/removed merge; prompts typed merge by character
//   shared      Y.Map paramId -> value
//   perColumn   Y.Map columnKey -> Y.Map paramId -> value
//   cells       Y.Map cellKey -> cell JSON                 each cell has one writer at a time (whoever ran it)
//   favourites  Y.Map rowId -> columnKey
//   notes       Y.Map cellKey -> string
//   revealedBy  Y.Map memberId -> time                     Reveal is per member: the others stay blind
//   decisions   Y.Array<{ column, reason, by, at }>         added to, each by its maker, never changed
//   criteria    Y.Array<{ id, name }>                        anyone adds, renames (a new element), removes
//   scores      Y.Map memberId -> { cells, at }             each member's sheet, written by that member only
//
// `save` diffs a Board into that structure, writing only what changed, so a member's edit never
// overwrites a part someone else changed meanwhile. What is read back is parsed part by part with the
// boards' zod schemas: another member's studio, or a hostile client, wrote it.

/** A board as the team sees it: the Board, plus what only the team has. */
export interface TeamBoard {
  /** `blind` is the board's: whether a member sees it blind also depends on `revealedBy`. */
  board: Board;
  createdBy: string | null;
  /** memberId -> when that member pressed Reveal. */
  revealedBy: Readonly<Record<string, number>>;
}

/**
 * Whether `memberId` sees this board blind: blind until they themselves reveal it.
 * @internal
 */
export const blindFor = (record: TeamBoard, memberId: string): boolean =>
  record.board.blind && record.revealedBy[memberId] === undefined;

/** A team board is the room's, not one connection's: Board wants a connection id, so it gets this one. */
export const TEAM_CONNECTION = 'team';

type Listener = () => void;

// ---- reading -----------------------------------------------------------------------------------------

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/**
 * Half of a surrogate pair (concurrent edits can leave one) reads as U+FFFD: that is what every other
 * copy reads, because Yjs sends text as UTF-8, where a lone half cannot be written. Read raw, the copy
 * that made the edit would show a different string from the rest.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** @internal */
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

const textOf = (v: unknown): string => wellFormed(v instanceof Y.Text ? v.toString() : (str(v) ?? ''));

function entriesOf(v: unknown): [string, unknown][] {
  return v instanceof Y.Map ? [...(v as Y.Map<unknown>).entries()] : [];
}

function paramsOf(v: unknown): Record<string, z.infer<typeof ParamValueSchema>> {
  const out: Record<string, z.infer<typeof ParamValueSchema>> = {};
  for (const [k, raw] of entriesOf(v)) {
    const parsed = ParamValueSchema.safeParse(raw);
    if (parsed.success) out[k] = parsed.data;
  }
  return out;
}

function stringsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, raw] of entriesOf(v)) if (typeof raw === 'string') out[k] = raw;
  return out;
}

/** A board's decisions as listed (each parsed: one that does not parse is left out, the rest kept). */
function decisionsOf(v: unknown): Decision[] {
  if (!(v instanceof Y.Array)) return [];
  const out: Decision[] = [];
  for (const raw of (v as Y.Array<unknown>).toArray()) {
    const parsed = DecisionSchema.safeParse(raw);
    if (parsed.success) out.push(parsed.data);
  }
  return out.slice(-MAX_DECISIONS);
}

/** A board's criteria (each parsed; an id named twice, as two members' concurrent renames leave it, once). */
function criteriaOf(v: unknown): Criterion[] {
  if (!(v instanceof Y.Array)) return [];
  const out: Criterion[] = [];
  for (const raw of (v as Y.Array<unknown>).toArray()) {
    const parsed = CriterionSchema.safeParse(raw);
    if (parsed.success && !out.some((c) => c.id === parsed.data.id)) out.push(parsed.data);
  }
  return out.slice(0, MAX_CRITERIA);
}

/** Every member's score sheet (one that does not parse is left out; the key is whose it is). */
function scoresOf(v: unknown): Record<string, ScoreSheet> {
  const out: Record<string, ScoreSheet> = {};
  for (const [k, raw] of entriesOf(v)) {
    const parsed = ScoreSheetSchema.safeParse(raw);
    if (parsed.success) out[k] = parsed.data;
  }
  return out;
}

/**
 * The Board in a board's Y.Map, or null when it is not one. Concurrent edits can leave shapes no single
 * studio wrote (two members each add a column past the limit, or each remove a different one of two
 * rows): those are read leniently (duplicates dropped, limits applied, an empty board given one blank
 * row with an id every member derives alike) rather than losing the whole board.
 */
function readBoard(map: Y.Map<unknown>): TeamBoard | null {
  const id = str(map.get('id'));
  if (!id) return null;
  const columns: Column[] = [];
  const seenColumns = new Set<string>();
  const yColumns = map.get('columns');
  if (yColumns instanceof Y.Array) {
    for (const raw of yColumns.toArray()) {
      const parsed = ColumnSchema.safeParse(raw);
      if (!parsed.success || seenColumns.has(columnKey(parsed.data))) continue;
      seenColumns.add(columnKey(parsed.data));
      columns.push({ modelId: parsed.data.modelId, versionId: parsed.data.versionId });
    }
  }
  const rows: { id: string; prompt: string }[] = [];
  const seenRows = new Set<string>();
  const yRows = map.get('rows');
  if (yRows instanceof Y.Array) {
    for (const raw of yRows.toArray()) {
      if (!(raw instanceof Y.Map)) continue;
      const rowId = str(raw.get('id'));
      if (!rowId || seenRows.has(rowId)) continue;
      seenRows.add(rowId);
      rows.push({ id: rowId, prompt: textOf(raw.get('prompt')) });
    }
  }
  if (rows.length === 0) rows.push({ id: blankRowId(id), prompt: '' });

  const perColumn: Record<string, ReturnType<typeof paramsOf>> = {};
  for (const [k, raw] of entriesOf(map.get('perColumn'))) perColumn[k] = paramsOf(raw);
  const cells: Record<string, Cell> = {};
  for (const [k, raw] of entriesOf(map.get('cells'))) {
    const parsed = CellSchema.safeParse(raw);
    if (parsed.success) cells[k] = parsed.data;
  }
  const revealedBy: Record<string, number> = {};
  for (const [k, raw] of entriesOf(map.get('revealedBy'))) {
    const at = num(raw);
    if (at !== undefined) revealedBy[k] = at;
  }

  const parsed = BoardSchema.safeParse({
    id,
    connectionId: TEAM_CONNECTION,
    name: str(map.get('name')) ?? '',
    createdAt: num(map.get('createdAt')) ?? 0,
    updatedAt: num(map.get('updatedAt')) ?? 0,
    setup: {
      category: str(map.get('category')) ?? '',
      columns: columns.slice(0, MAX_COLUMNS),
      rows: rows.slice(0, MAX_ROWS),
      shared: paramsOf(map.get('shared')),
      perColumn,
    },
    cells,
    favourites: stringsOf(map.get('favourites')),
    notes: stringsOf(map.get('notes')),
    blind: map.get('blind') === true,
    decisions: decisionsOf(map.get('decisions')),
    criteria: criteriaOf(map.get('criteria')),
    scores: scoresOf(map.get('scores')),
  });
  if (!parsed.success) return null;
  return { board: parsed.data, createdBy: str(map.get('createdBy')) ?? null, revealedBy };
}

/**
 * The id of the blank row a board whose rows were all removed is read with (the same for everyone).
 * @internal
 */
export const blankRowId = (boardId: string): string => `${boardId}:row`;

// ---- writing -----------------------------------------------------------------------------------------

/** JSON values (params, cells) compared by content: a write of an equal value would still be an edit. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return (
      ka.length === kb.length &&
      ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return false;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Turns `text` into `next` with one delete and one insert around the common start and end, so a
 * keystroke is a one-character edit that merges with another member's typing elsewhere in the text.
 * @internal
 */
export function setText(text: Y.Text, next: string): void {
  const prev = text.toString();
  if (prev === next) return;
  const max = Math.min(prev.length, next.length);
  let start = 0;
  while (start < max && prev.charCodeAt(start) === next.charCodeAt(start)) start++;
  // Never split a surrogate pair: half of an emoji on each side of an edit is not text.
  if (start > 0 && isHighSurrogate(prev.charCodeAt(start - 1))) start--;
  let end = 0;
  while (
    end < max - start &&
    prev.charCodeAt(prev.length - 1 - end) === next.charCodeAt(next.length - 1 - end)
  )
    end++;
  if (end > 0 && isLowSurrogate(prev.charCodeAt(prev.length - end))) end--;
  const removed = prev.length - start - end;
  if (removed > 0) text.delete(start, removed);
  const inserted = next.slice(start, next.length - end);
  if (inserted) text.insert(start, inserted);
}

function setValue(map: Y.Map<unknown>, key: string, value: unknown): void {
  if (value === undefined) {
    if (map.has(key)) map.delete(key);
  } else if (!same(map.get(key), value)) map.set(key, value);
}

function childMap(parent: Y.Map<unknown>, key: string): Y.Map<unknown> {
  const current = parent.get(key);
  if (current instanceof Y.Map) return current as Y.Map<unknown>;
  const made = new Y.Map<unknown>();
  parent.set(key, made);
  return made;
}

function childArray<T>(parent: Y.Map<unknown>, key: string): Y.Array<T> {
  const current = parent.get(key);
  if (current instanceof Y.Array) return current as Y.Array<T>;
  const made = new Y.Array<T>();
  parent.set(key, made);
  return made;
}

/** Makes a Y.Map's entries those of `record` (values compared by content; keys not in it removed). */
function syncRecord(map: Y.Map<unknown>, record: Readonly<Record<string, unknown>>): void {
  for (const key of [...map.keys()]) if (!(key in record)) map.delete(key);
  for (const [key, value] of Object.entries(record)) setValue(map, key, value);
}

/**
 * Makes a Y.Array hold the items of `target` (identified by `keyOf`): items gone are deleted, new ones
 * inserted where they belong, kept ones left in place (so another member's concurrent edit inside a
 * kept row survives). A reorder, which no screen makes today, rewrites from the first moved item.
 */
function syncList<T, Y_ITEM>(
  array: Y.Array<Y_ITEM>,
  target: readonly T[],
  keyOfItem: (item: Y_ITEM) => string | undefined,
  keyOf: (t: T) => string,
  make: (t: T) => Y_ITEM,
  update: (item: Y_ITEM, t: T) => void,
): void {
  const wanted = new Set(target.map(keyOf));
  const seen = new Set<string>();
  for (let i = array.length - 1; i >= 0; i--) {
    const k = keyOfItem(array.get(i));
    // Gone from the target, or unreadable: removed.
    if (k === undefined || !wanted.has(k)) array.delete(i, 1);
  }
  // Two members adding the same item offline leave it twice: the first stays.
  for (let i = 0; i < array.length; i++) {
    const k = keyOfItem(array.get(i))!;
    if (seen.has(k)) {
      array.delete(i, 1);
      i--;
    } else seen.add(k);
  }
  target.forEach((t, i) => {
    const k = keyOf(t);
    const here = i < array.length ? keyOfItem(array.get(i)) : undefined;
    if (here === k) {
      update(array.get(i), t);
      return;
    }
    const at = array.toArray().findIndex((item) => keyOfItem(item) === k);
    if (at === -1) {
      array.insert(i, [make(t)]);
      return;
    }
    // Moved: take it out and put a copy in its place (only a reorder gets here).
    array.delete(at, 1);
    array.insert(i, [make(t)]);
  });
}

function rowMap(row: { id: string; prompt: string }): Y.Map<unknown> {
  const map = new Y.Map<unknown>();
  map.set('id', row.id);
  const text = new Y.Text();
  text.insert(0, row.prompt);
  map.set('prompt', text);
  return map;
}

/**
 * Writes into `map` what differs between it and `board` (inside the caller's transaction); the cells
 * too unless `cells` is false (TeamBoards writes them apart, out of the member's undo history).
 */
function writeBoard(
  map: Y.Map<unknown>,
  board: Board,
  createdBy?: string,
  { cells = true }: { cells?: boolean } = {},
): void {
  setValue(map, 'id', board.id);
  setValue(map, 'name', board.name);
  setValue(map, 'category', board.setup.category);
  setValue(map, 'createdAt', board.createdAt);
  setValue(map, 'updatedAt', board.updatedAt);
  setValue(map, 'blind', board.blind);
  if (createdBy !== undefined && !map.has('createdBy')) map.set('createdBy', createdBy);

  syncList<Column, unknown>(
    childArray(map, 'columns'),
    board.setup.columns,
    (item) => {
      const parsed = ColumnSchema.safeParse(item);
      return parsed.success ? columnKey(parsed.data) : undefined;
    },
    columnKey,
    (c) => ({ modelId: c.modelId, versionId: c.versionId }),
    () => undefined,
  );
  syncList<{ id: string; prompt: string }, unknown>(
    childArray(map, 'rows'),
    board.setup.rows,
    (item) => (item instanceof Y.Map ? str(item.get('id')) : undefined),
    (r) => r.id,
    rowMap,
    (item, r) => {
      const m = item as Y.Map<unknown>;
      const prompt = m.get('prompt');
      if (prompt instanceof Y.Text) setText(prompt, r.prompt);
      else {
        const text = new Y.Text();
        text.insert(0, r.prompt);
        m.set('prompt', text);
      }
    },
  );
  syncRecord(childMap(map, 'shared'), board.setup.shared);
  const perColumn = childMap(map, 'perColumn');
  for (const key of [...perColumn.keys()]) if (!(key in board.setup.perColumn)) perColumn.delete(key);
  for (const [key, params] of Object.entries(board.setup.perColumn))
    syncRecord(childMap(perColumn, key), params);
  if (cells) syncRecord(childMap(map, 'cells'), board.cells);
  syncRecord(childMap(map, 'favourites'), board.favourites);
  syncRecord(childMap(map, 'notes'), board.notes);
  childMap(map, 'revealedBy');
  // Criteria where the room keeps them (schema version 4; an older server refuses the field). A rename
  // is the old element out and a new one in, so two members' edits of different criteria both stay.
  if (map.doc && schemaVersionOf(map.doc) >= 4 && (board.criteria.length > 0 || map.has('criteria')))
    syncList<Criterion, unknown>(
      childArray(map, 'criteria'),
      board.criteria,
      (item) => {
        const parsed = CriterionSchema.safeParse(item);
        return parsed.success ? criterionKey(parsed.data) : undefined;
      },
      criterionKey,
      (c) => ({ id: c.id, name: c.name }),
      () => undefined,
    );
}

const criterionKey = (c: Criterion): string => `${c.id}\u0000${c.name}`;

// ---- presence ----------------------------------------------------------------------------------------

/** The awareness field the connection sets for each member: who they are. Untrusted, like all of it. */
const AwareMemberSchema = z.object({ id: z.string().check(z.minLength(1)), name: z.optional(z.string()) });
const BoardFieldSchema = z.string().check(z.minLength(1));

export interface Viewer {
  memberId: string;
  /** The name their own studio announces (untrusted text); the members list may know a better one. */
  name: string;
}

// ---- the store ---------------------------------------------------------------------------------------

/** A member's own edits of one board, undone and redone (Y.UndoManager over that board only). */
export interface BoardHistory {
  subscribe: (listener: Listener) => () => void;
  snapshot: () => { canUndo: boolean; canRedo: boolean };
  undo: () => void;
  redo: () => void;
}

const EMPTY_VIEWERS: readonly Viewer[] = [];

/**
 * The team's boards, read as a list of TeamBoard (immutable, newest change first, rebuilt only when the
 * boards root changes and only for the boards that changed) and written by diffing a Board in.
 */
export class TeamBoards {
  private readonly root: Y.Map<unknown>;
  private readonly listeners = new Listeners();
  private readonly byId = new Map<string, TeamBoard>();
  private list: readonly TeamBoard[] = [];
  private readonly histories = new Map<
    string,
    { map: Y.Map<unknown>; manager: Y.UndoManager; history: BoardHistory }
  >();
  private readonly presenceListeners = new Listeners();
  private presenceState: ReadonlyMap<string, readonly Viewer[]> = new Map();

  /** The origin of this member's writes that no undo tracks: a run's cells, everyone's reveals cleared. */
  private readonly runOrigin: { member: string; run: true };

  constructor(private readonly team: TeamContext) {
    this.runOrigin = { member: team.memberId, run: true };
    this.root = rootMap<unknown>(team.doc, ROOTS.boards);
    for (const key of this.root.keys()) this.reread(key);
    this.relist();
    this.root.observeDeep(this.onChange);
    team.awareness.on('change', this.onAwareness);
    this.onAwareness();
  }

  private readonly onChange = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
    const changed = new Set<string>();
    for (const event of events) {
      if (event.target === this.root) for (const key of event.changes.keys.keys()) changed.add(key);
      else if (typeof event.path[0] === 'string') changed.add(event.path[0]);
    }
    for (const key of changed) this.reread(key);
    this.relist();
    this.listeners.notify();
  };

  private reread(key: string): void {
    const raw = this.root.get(key);
    const record = raw instanceof Y.Map ? readBoard(raw as Y.Map<unknown>) : null;
    // A board stored under a key other than its id is not one any studio wrote: left out.
    if (record && record.board.id === key) this.byId.set(key, record);
    else {
      this.byId.delete(key);
    }
    // A board deleted (or replaced by a new map under its id) takes its undo history with it.
    const kept = this.histories.get(key);
    if (kept && kept.map !== raw) {
      kept.manager.destroy();
      this.histories.delete(key);
    }
  }

  private relist(): void {
    this.list = [...this.byId.values()].sort((a, b) => b.board.updatedAt - a.board.updatedAt);
  }

  readonly subscribe = this.listeners.subscribe;

  readonly snapshot = (): readonly TeamBoard[] => this.list;

  readonly get = (id: string): TeamBoard | null => this.byId.get(id) ?? null;

  /** This member's id: whose score sheet is theirs. */
  get memberId(): string {
    return this.team.memberId;
  }

  /** Whether the room's server keeps criteria and scores (schema version 4 or later). */
  readonly keepsScores = (): boolean => schemaVersionOf(this.team.doc) >= 4;

  /** Whether this member sees the board blind (a view asks here rather than importing blindFor). */
  readonly blindForMe = (record: TeamBoard): boolean => blindFor(record, this.team.memberId);

  /** Writes a board: created when the team has none with its id, otherwise only what changed. */
  save(board: Board): void {
    const parsed = BoardSchema.parse(board);
    const current = this.root.get(parsed.id);
    if (!(current instanceof Y.Map)) {
      this.team.transact(() => this.addBoard(parsed));
      return;
    }
    const map = current as Y.Map<unknown>;
    this.team.transact(() => writeBoard(map, parsed, undefined, { cells: false }));
    // A cell records a paid run (its idempotency key and task): undoing it would forget the task and
    // offer to pay again. So cells are written under an origin of this member's that no undo tracks.
    this.team.doc.transact(() => syncRecord(childMap(map, 'cells'), parsed.cells), this.runOrigin);
  }

  /** Puts a copy of a board into the team (Share to team), with a new id; returns the team's board. */
  create(board: Board, id: string): Board {
    const now = this.team.now();
    const copy: Board = { ...board, id, connectionId: TEAM_CONNECTION, createdAt: now, updatedAt: now };
    this.save(copy);
    return copy;
  }

  /**
   * Deletes a board for everyone; returns what puts it back (an "Undo"): the board as it was, with its
   * cells, written again by this member. Not Yjs's undo of the deletion, which would write the board's
   * `createdBy` and every member's reveals again in this member's name: the server refuses a change that
   * sets another member's reveal or a `createdBy` not the writer's (contract/team-doc.ts). So the board
   * comes back created by this member, revealed to this member if it was, with this member's decisions;
   * the others reveal it again.
   */
  delete(id: string): () => void {
    if (!this.root.has(id)) return () => undefined;
    const before = this.byId.get(id) ?? null;
    this.team.transact(() => this.root.delete(id));
    return () => {
      if (!before || this.root.has(id)) return;
      this.team.transact(() => {
        const map = this.addBoard(before.board);
        // This member's own decisions come back; the others' are theirs to make again.
        const mine = before.board.decisions.filter((d) => d.by === this.team.memberId);
        const list = map.get('decisions');
        if (mine.length > 0 && list instanceof Y.Array) list.push(mine);
        const at = before.revealedBy[this.team.memberId];
        if (at !== undefined) childMap(map, 'revealedBy').set(this.team.memberId, at);
        // So do this member's own scores; the others' are theirs to give again.
        const sheet = before.board.scores[this.team.memberId];
        if (sheet && map.get('scores') instanceof Y.Map)
          (map.get('scores') as Y.Map<unknown>).set(this.team.memberId, sheet);
      });
    };
  }

  /**
   * A new board's map, created by this member, with its list of decisions where the room keeps them (made
   * with the board, so two members' first decisions go into one list).
   */
  private addBoard(board: Board): Y.Map<unknown> {
    const map = new Y.Map<unknown>();
    this.root.set(board.id, map);
    writeBoard(map, board, this.team.memberId);
    if (schemaVersionOf(this.team.doc) >= 3) map.set('decisions', new Y.Array<unknown>());
    if (this.keepsScores()) {
      if (!map.has('criteria')) map.set('criteria', new Y.Array<unknown>());
      map.set('scores', new Y.Map<unknown>());
    }
    return map;
  }

  /**
   * Sets this member's score of one cell on one criterion (null takes it back), in their own sheet: an
   * edit of theirs (Undo takes it back). False when the room's server does not keep scores (a room
   * before schema version 4).
   */
  score(id: string, cell: string, criterion: string, score: number | null): boolean {
    const map = this.root.get(id);
    if (!(map instanceof Y.Map) || !this.keepsScores()) return false;
    const board = map as Y.Map<unknown>;
    const scores = childMap(board, 'scores');
    const mine = ScoreSheetSchema.safeParse(scores.get(this.team.memberId));
    const sheet = withScore(mine.success ? mine.data : undefined, cell, criterion, score, this.team.now());
    this.team.transact(() => {
      if (Object.keys(sheet.cells).length === 0) scores.delete(this.team.memberId);
      else scores.set(this.team.memberId, sheet);
    });
    return true;
  }

  /**
   * Records this member's decision on a board (one more in its history: a revision never rewrites one).
   * Not in this member's undo history: the server keeps decisions whole, so an undo would be refused.
   * False when the room's server does not keep decisions (a room before schema version 3).
   */
  decide(id: string, decision: { column: string; reason: string }): boolean {
    const map = this.root.get(id);
    if (!(map instanceof Y.Map) || schemaVersionOf(this.team.doc) < 3) return false;
    const value: Decision = DecisionSchema.parse({
      column: decision.column,
      reason: decision.reason,
      by: this.team.memberId,
      at: this.team.now(),
    });
    this.team.doc.transact(() => {
      childArray<unknown>(map as Y.Map<unknown>, 'decisions').push([value]);
      (map as Y.Map<unknown>).set('updatedAt', value.at);
    }, this.runOrigin);
    return true;
  }

  /** This member reveals a blind board to themself; the others stay blind until they do. */
  reveal(id: string): void {
    const map = this.root.get(id);
    if (!(map instanceof Y.Map)) return;
    this.team.transact(() =>
      childMap(map as Y.Map<unknown>, 'revealedBy').set(this.team.memberId, this.team.now()),
    );
  }

  /**
   * Blind on: a board not blind yet starts a blind round for everyone (earlier reveals cleared); on a
   * blind board this member revealed, it hides the models from this member again.
   */
  blind(id: string): void {
    const map = this.root.get(id);
    if (!(map instanceof Y.Map)) return;
    const m = map as Y.Map<unknown>;
    if (m.get('blind') === true) {
      this.team.transact(() => childMap(m, 'revealedBy').delete(this.team.memberId));
      return;
    }
    // Everyone's reveals are cleared out of this member's undo history: undoing "Blind" would write the
    // other members' reveals again in this member's name, which the server refuses (each member writes
    // only their own). Undone, the board is no longer blind, and reveals do not matter then.
    this.team.doc.transact(() => {
      const revealed = childMap(m, 'revealedBy');
      for (const key of [...revealed.keys()]) revealed.delete(key);
    }, this.runOrigin);
    this.team.transact(() => {
      m.set('blind', true);
      m.set('updatedAt', this.team.now());
    });
  }

  /** Undo and redo of this member's own edits of one board (another member's are never undone). */
  history(id: string): BoardHistory | null {
    const kept = this.histories.get(id);
    if (kept) return kept.history;
    const map = this.root.get(id);
    if (!(map instanceof Y.Map)) return null;
    const manager = new Y.UndoManager(map, { trackedOrigins: new Set([this.team.origin]) });
    const listeners = new Listeners();
    let state = { canUndo: false, canRedo: false };
    const refresh = () => {
      const next = { canUndo: manager.canUndo(), canRedo: manager.canRedo() };
      if (next.canUndo === state.canUndo && next.canRedo === state.canRedo) return;
      state = next;
      listeners.notify();
    };
    manager.on('stack-item-added', refresh);
    manager.on('stack-item-popped', refresh);
    manager.on('stack-cleared', refresh);
    const history: BoardHistory = {
      subscribe: listeners.subscribe,
      snapshot: () => state,
      undo: () => void manager.undo(),
      redo: () => void manager.redo(),
    };
    this.histories.set(id, { map: map as Y.Map<unknown>, manager, history });
    return history;
  }

  // ---- presence: who has a board open (awareness, not the document: it is gone when they leave) -------

  /** Says which board this member has open (null: none), for the others' "Open by" line. */
  setOpen(boardId: string | null): void {
    this.team.awareness.setLocalStateField('board', boardId);
  }

  private readonly onAwareness = () => {
    const next = new Map<string, Viewer[]>();
    const own = this.team.awareness.clientID;
    for (const [clientId, state] of this.team.awareness.getStates()) {
      if (clientId === own) continue;
      const board = BoardFieldSchema.safeParse(state.board);
      const member = AwareMemberSchema.safeParse(state.member);
      if (!board.success || !member.success) continue;
      // The server stamps the id of the member it admitted: believed over what a client wrote.
      const id = typeof state.memberId === 'string' && state.memberId ? state.memberId : member.data.id;
      if (id === this.team.memberId) continue;
      const list = next.get(board.data) ?? [];
      // One member on two devices is one viewer.
      if (!list.some((v) => v.memberId === id)) list.push({ memberId: id, name: member.data.name ?? '' });
      next.set(board.data, list);
    }
    const prev = this.presenceState;
    const unchanged =
      prev.size === next.size &&
      [...next].every(([k, v]) => {
        const p = prev.get(k);
        return (
          p &&
          p.length === v.length &&
          p.every((x, i) => x.memberId === v[i]!.memberId && x.name === v[i]!.name)
        );
      });
    if (unchanged) return;
    this.presenceState = next;
    this.presenceListeners.notify();
  };

  readonly subscribePresence = this.presenceListeners.subscribe;

  /** The other members who have this board open (immutable; the same array until it changes). */
  readonly viewers = (boardId: string): readonly Viewer[] => this.presenceState.get(boardId) ?? EMPTY_VIEWERS;

  destroy(): void {
    this.root.unobserveDeep(this.onChange);
    this.team.awareness.off('change', this.onAwareness);
    for (const { manager } of this.histories.values()) manager.destroy();
    this.histories.clear();
    this.listeners.clear();
    this.presenceListeners.clear();
  }
}
