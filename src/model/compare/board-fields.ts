import * as Y from 'yjs';
import type { z } from 'zod/mini';
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
  type Board,
  type BoardSetup,
  type Criterion,
  type Row,
} from './boards';
import { ParamValueSchema } from '../../../contract/task';
import { schemaVersionOf, type TeamDocBoardKey } from '../../../contract/team-doc';
import {
  childArray,
  childMap,
  entriesOf,
  num,
  parsedBy,
  setText,
  setValue,
  str,
  syncList,
  syncRecord,
  textOf,
} from '../team/yjs-diff';

// A Compare board shared by a team (docs/team-space.md, `boards`) is a Y.Map under the `boards` root,
// split into parts fine enough that two members' concurrent edits of different parts both survive the
// merge (Yjs merges; we only choose the shape). BOARD_FIELDS is that shape, one entry per key of the map:
// what the key holds, where its value sits in the TeamBoard, how it is read back and who writes it.
// readBoard and writeBoard are loops over it. A new field of a shared board is an entry here, and the
// contract's node for its key (contract/team-doc.ts), which the server checks every change against.
//
// Reading is lenient: concurrent edits can leave shapes no single studio wrote (two members each add a
// column past the limit, or each remove a different one of two rows), and another member's studio or a
// hostile client may have written the rest, so each part is parsed on its own and what does not parse is
// left out, rather than losing the whole board. Writing is a diff: only what changed, so a member's edit
// never overwrites a part someone else changed meanwhile.

/** A board as the team sees it: the Board, plus what only the team has. */
export interface TeamBoard {
  /** `blind` is the board's: whether a member sees it blind also depends on `revealedBy`. */
  board: Board;
  createdBy: string | null;
  /** memberId -> when that member pressed Reveal. */
  revealedBy: Readonly<Record<string, number>>;
}

/** A team board is the room's, not one connection's: Board wants a connection id, so it gets this one. */
export const TEAM_CONNECTION = 'team';

type BoardKey = Exclude<keyof Board, 'setup'>;
type SetupKey = keyof BoardSetup;
type TeamKey = Exclude<keyof TeamBoard, 'board'>;

/** Where a field's value sits in a TeamBoard: a field of the Board, of its setup, or the team's own. */
type BoardPath = `board.${BoardKey}` | `board.setup.${SetupKey}` | TeamKey;

type ValueAt<P extends BoardPath> = P extends `board.setup.${infer K extends SetupKey}`
  ? BoardSetup[K]
  : P extends `board.${infer K extends BoardKey}`
    ? Board[K]
    : P extends TeamKey
      ? TeamBoard[P]
      : never;

/**
 * What the board's Y.Map holds under a key: a plain value (the last write wins), a Y.Array (a list whose
 * elements are added and removed by identity), a Y.Map of values by key, or a Y.Map of such Y.Maps.
 */
type FieldShape = 'value' | 'list' | 'record' | 'records';

/** One key of a board's Y.Map. */
interface BoardField {
  readonly path: BoardPath;
  readonly shape: FieldShape;
  /** Its value, read leniently from what its key holds (`board`: the board's whole map). */
  readonly read: (raw: unknown, board: Y.Map<unknown>) => unknown;
  /** Makes what its key holds the value, writing only what differs (none: only its own operations write it). */
  readonly write?: (board: Y.Map<unknown>, key: string, value: unknown) => void;
  /**
   * Who writes it: every save of the Board, what differs ('save'); the member who creates the board, once
   * ('once': the server takes it only as its writer's id, never changed); or its own operations, each
   * member their part ('own': a reveal, a decision, a score sheet), which a save leaves as it is.
   */
  readonly writtenBy: 'save' | 'once' | 'own';
  /**
   * When its empty list or map is made where the board has none: by every write of the board ('save'),
   * or with a new board only ('creation'), so that two members' first entries go into one list (made by
   * each at once, one would replace the other); a save then makes it only to put something in it.
   */
  readonly made?: 'save' | 'creation';
  /** The schema version from which the room's server keeps it (an older one refuses it): never written before. */
  readonly keptFrom?: number;
  /**
   * Written apart, under an origin no undo tracks: a cell records a paid run (its idempotency key and
   * task), and undoing it would forget the task and offer to pay again.
   */
  readonly untracked?: boolean;
}

// ---- kinds: how a shape is read and written -------------------------------------------------------------

interface Kind<T> {
  shape: FieldShape;
  read: (raw: unknown, board: Y.Map<unknown>) => T;
  write?: (board: Y.Map<unknown>, key: string, value: T) => void;
}

type Policy = Partial<Pick<BoardField, 'writtenBy' | 'made' | 'keptFrom' | 'untracked'>>;

/** An entry of the table: its path and its kind agree on the value's type, checked here. */
function field<P extends BoardPath>(path: P, kind: Kind<ValueAt<P>>, policy: Policy = {}): BoardField {
  const writtenBy = policy.writtenBy ?? 'save';
  if (!kind.write && writtenBy !== 'own')
    throw new Error(`The board's ${path} is written: it needs a writer.`);
  return {
    path,
    shape: kind.shape,
    read: kind.read,
    // The table holds fields of every type; `field` checked that this one's are one type.
    write: kind.write as BoardField['write'],
    ...(kind.shape !== 'value' && { made: 'save' }),
    ...policy,
    writtenBy,
  };
}

const value = <T>(read: (raw: unknown) => T): Kind<T> => ({ shape: 'value', read, write: setValue });
/** A string, '' when missing or not one. */
const plainString = value((v) => str(v) ?? '');
/** A time, 0 when missing or not a finite number. */
const plainTime = value((v) => num(v) ?? 0);
/** True only when it is true. */
const plainFlag = value((v) => v === true);
/** A member's id, null when missing or not a string. */
const memberIdOrNull = value((v) => str(v) ?? null);

interface ListOptions<T> {
  /** An element as read (undefined: left out). */
  item: (raw: unknown) => T | undefined;
  /** What identifies an element for a save: one with the same key stays in place; none: no save writes it. */
  key?: (t: T) => string;
  /** The key of an element as stored, when cheaper than reading it whole (a row: its id, not its text). */
  keyOfItem?: (raw: unknown) => string | undefined;
  make: (t: T) => unknown;
  /** Brings an element kept in place up to date (a row's prompt typed into). */
  update?: (raw: unknown, t: T) => void;
  /** A second element with the same `unique` is dropped on reading (two members added it offline). */
  unique?: (t: T) => string;
  /** The most read: the first ones, or the last ones of a history. */
  max: number;
  keep?: 'first' | 'last';
  /** What a list with no readable element is read as (derived alike by every member). */
  whenEmpty?: (board: Y.Map<unknown>) => T[];
}

function list<T>(o: ListOptions<T>): Kind<T[]> {
  const { key } = o;
  const keyOfItem =
    o.keyOfItem ??
    ((raw: unknown) => {
      const t = o.item(raw);
      return t === undefined ? undefined : key?.(t);
    });
  return {
    shape: 'list',
    read: (raw, board) => {
      const out: T[] = [];
      const seen = new Set<string>();
      for (const item of raw instanceof Y.Array ? (raw as Y.Array<unknown>).toArray() : []) {
        const t = o.item(item);
        if (t === undefined) continue;
        const id = o.unique?.(t);
        if (id !== undefined && seen.has(id)) continue;
        if (id !== undefined) seen.add(id);
        out.push(t);
      }
      if (out.length === 0 && o.whenEmpty) out.push(...o.whenEmpty(board));
      return o.keep === 'last' ? out.slice(-o.max) : out.slice(0, o.max);
    },
    ...(key && {
      write: (board, k, target) =>
        syncList<T, unknown>(
          childArray(board, k),
          target,
          keyOfItem,
          key,
          o.make,
          o.update ?? (() => undefined),
        ),
    }),
  };
}

/** A list of JSON values of one schema (each element parsed on its own; stored as its schema keeps it). */
const jsonList = <S extends z.ZodMiniType>(
  schema: S,
  o: Omit<ListOptions<z.infer<S>>, 'item' | 'make'>,
): Kind<z.infer<S>[]> => list({ ...o, item: parsedBy(schema), make: (t) => schema.parse(t) });

function readRecord<T>(raw: unknown, item: (raw: unknown) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of entriesOf(raw)) {
    const t = item(v);
    if (t !== undefined) out[k] = t;
  }
  return out;
}

/** A Y.Map of values by key, each read on its own (one that does not parse is left out). */
const record = <T>(item: (raw: unknown) => T | undefined): Kind<Record<string, T>> => ({
  shape: 'record',
  read: (raw) => readRecord(raw, item),
  write: (board, key, target) => syncRecord(childMap(board, key), target),
});

/** A Y.Map of records by key (a column's params, by column key), each a Y.Map of its own. */
const records = <T>(item: (raw: unknown) => T | undefined): Kind<Record<string, Record<string, T>>> => ({
  shape: 'records',
  read: (raw) => {
    const out: Record<string, Record<string, T>> = {};
    for (const [k, inner] of entriesOf(raw)) out[k] = readRecord(inner, item);
    return out;
  },
  write: (board, key, target) => {
    const outer = childMap(board, key);
    for (const k of [...outer.keys()]) if (!(k in target)) outer.delete(k);
    for (const [k, inner] of Object.entries(target)) syncRecord(childMap(outer, k), inner);
  },
});

/**
 * The id of the blank row a board whose rows were all removed is read with (the same for everyone).
 * @internal
 */
export const blankRowId = (boardId: string): string => `${boardId}:row`;

function newPrompt(prompt: string): Y.Text {
  const text = new Y.Text();
  text.insert(0, prompt);
  return text;
}

/** A row is a Y.Map of its id and its prompt, a Y.Text two members type into at once (merged by character). */
const rowList = list<Row>({
  item: (raw) => {
    if (!(raw instanceof Y.Map)) return undefined;
    const id = str(raw.get('id'));
    return id ? { id, prompt: textOf(raw.get('prompt')) } : undefined;
  },
  key: (r) => r.id,
  keyOfItem: (raw) => (raw instanceof Y.Map ? str(raw.get('id')) : undefined),
  make: (r) => {
    const map = new Y.Map<unknown>();
    map.set('id', r.id);
    map.set('prompt', newPrompt(r.prompt));
    return map;
  },
  update: (raw, r) => {
    const row = raw as Y.Map<unknown>;
    const prompt = row.get('prompt');
    if (prompt instanceof Y.Text) setText(prompt, r.prompt);
    else row.set('prompt', newPrompt(r.prompt));
  },
  unique: (r) => r.id,
  max: MAX_ROWS,
  // Every row removed (each member removed a different one of two): one blank row, alike everywhere.
  whenEmpty: (board) => [{ id: blankRowId(str(board.get('id')) ?? ''), prompt: '' }],
});

/** A rename is the old criterion out and a new one in, so two members' renames of different ones both stay. */
const criterionKey = (c: Criterion): string => `${c.id}\u0000${c.name}`;

// ---- the table ---------------------------------------------------------------------------------------------

/**
 * @internal (its tests check it against the contract and the Board)
 * The board's Y.Map, key by key, in the order a save writes them. Its keys are exactly those the contract
 * lets a board hold (board-fields.test.ts), and every field of the Board is an entry's or LOCAL_ONLY's.
 */
export const BOARD_FIELDS: { readonly [K in TeamDocBoardKey]: BoardField } = {
  // A board without an id is no board (the Board's schema refuses an empty one).
  id: field('board.id', plainString),
  // A plain string: a rename is one choice, not text two people type into.
  name: field('board.name', plainString),
  category: field('board.setup.category', plainString),
  createdAt: field('board.createdAt', plainTime),
  updatedAt: field('board.updatedAt', plainTime),
  blind: field('board.blind', plainFlag),
  createdBy: field('createdBy', memberIdOrNull, { writtenBy: 'once' }),
  // Adding and removing columns merge; two members adding one past the limit are read up to it.
  columns: field(
    'board.setup.columns',
    jsonList(ColumnSchema, { key: columnKey, unique: columnKey, max: MAX_COLUMNS }),
  ),
  rows: field('board.setup.rows', rowList),
  shared: field('board.setup.shared', record(parsedBy(ParamValueSchema))),
  perColumn: field('board.setup.perColumn', records(parsedBy(ParamValueSchema))),
  // Each cell has one writer at a time (whoever ran it).
  cells: field('board.cells', record(parsedBy(CellSchema)), { untracked: true }),
  favourites: field('board.favourites', record(str)),
  notes: field('board.notes', record(str)),
  // Reveal is per member (the others stay blind): each member sets their own entry.
  revealedBy: field('revealedBy', record(num), { writtenBy: 'own' }),
  // Added to, each by its maker, never changed.
  decisions: field('board.decisions', jsonList(DecisionSchema, { max: MAX_DECISIONS, keep: 'last' }), {
    writtenBy: 'own',
    made: 'creation',
    keptFrom: 3,
  }),
  // Anyone adds, renames, removes; an id named twice (two members' concurrent renames) is read once.
  criteria: field(
    'board.criteria',
    jsonList(CriterionSchema, { key: criterionKey, unique: (c) => c.id, max: MAX_CRITERIA }),
    { made: 'creation', keptFrom: 4 },
  ),
  // memberId -> that member's score sheet, written by that member only.
  scores: field('board.scores', record(parsedBy(ScoreSheetSchema)), {
    writtenBy: 'own',
    made: 'creation',
    keptFrom: 4,
  }),
};

/** @internal The Board's fields the room does not hold, and what a team board reads them as. */
export const LOCAL_ONLY: { readonly [P in BoardPath]?: ValueAt<P> } = {
  'board.connectionId': TEAM_CONNECTION,
};

const FIELDS = Object.entries(BOARD_FIELDS);

// ---- reading and writing -----------------------------------------------------------------------------------

function setAt(target: Record<string, unknown>, path: string, v: unknown): void {
  const steps = path.split('.');
  let at = target;
  for (const step of steps.slice(0, -1)) at = (at[step] ??= {}) as Record<string, unknown>;
  at[steps[steps.length - 1]!] = v;
}

function valueAt(source: TeamBoard, path: BoardPath): unknown {
  let at: unknown = source;
  for (const step of path.split('.')) at = (at as Record<string, unknown>)[step];
  return at;
}

const isEmpty = (v: unknown): boolean =>
  Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0;

/** The TeamBoard in a board's Y.Map, or null when it is not one: each field read as the table says. */
export function readBoard(map: Y.Map<unknown>): TeamBoard | null {
  const draft: Record<string, unknown> = {};
  for (const [path, v] of Object.entries(LOCAL_ONLY)) setAt(draft, path, v);
  for (const [key, f] of FIELDS) setAt(draft, f.path, f.read(map.get(key), map));
  const board = BoardSchema.safeParse(draft.board);
  if (!board.success) return null;
  // Each entry's reader returns its path's type (`field` checks it).
  const team = draft as Omit<TeamBoard, 'board'>;
  return { board: board.data, createdBy: team.createdBy, revealedBy: team.revealedBy };
}

/**
 * Writes into `map` what differs between it and `board` (inside the caller's transaction), field by field
 * as the table says. `createdBy`: the board is new, made by this member. `part`: only the fields written
 * apart ('untracked') or only the others ('tracked'); both when absent.
 */
export function writeBoard(
  map: Y.Map<unknown>,
  board: Board,
  { createdBy, part }: { createdBy?: string; part?: 'tracked' | 'untracked' } = {},
): void {
  const version = map.doc ? schemaVersionOf(map.doc) : 0;
  const creating = createdBy !== undefined;
  const source: TeamBoard = { board, createdBy: createdBy ?? null, revealedBy: {} };
  for (const [key, f] of FIELDS) {
    if (version < (f.keptFrom ?? 0)) continue;
    if (part !== undefined && (part === 'untracked') !== (f.untracked === true)) continue;
    const make = f.made === 'save' || (f.made === 'creation' && creating);
    if (make && f.shape === 'list') childArray(map, key);
    else if (make) childMap(map, key);
    if (f.writtenBy === 'own' || (f.writtenBy === 'once' && (!creating || map.has(key)))) continue;
    const v = valueAt(source, f.path);
    if (f.made === 'creation' && !map.has(key) && isEmpty(v)) continue;
    f.write?.(map, key, v);
  }
}
