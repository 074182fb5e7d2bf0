import { z } from 'zod/mini';

// The team space's shared document as a contract (docs/team-space.md "The document"): every root, what
// each key holds, the bounds of every value, who may write what, the schema version and its migrations,
// side by side. Three programs read it: the team-space server, which refuses a change that breaks it
// before applying it (server/team-space/authority.ts); the studio, which maps its model onto the
// document (src/model/team/) and parses what it reads; and other members' studios, perhaps older ones.
// No Yjs here (the contract imports only zod): the server walks Yjs's structures and asks this module
// about paths and values; migrations get the document through the small interface they need.

/** The version the server migrates every room to, and the studio reads. */
export const TEAM_DOC_VERSION = 5;

/** The top-level shared types, by name (each a Y.Map). Renaming one orphans its data: migrate instead. */
export const TEAM_DOC_ROOTS = {
  /** schemaVersion: written by the server's migrations only. */
  meta: 'meta',
  /** memberId -> { name, joinedAt } (memberId: the key's id from GET /me). */
  members: 'members',
  /** taskId -> the task as the team sees it, with `by`. */
  tasks: 'tasks',
  /** boardId -> Y.Map of the board. */
  boards: 'boards',
  /** `${boardId}|${rowId}|${memberId}` -> one member's blind vote on one row. */
  votes: 'votes',
  /** `${memberId}|${outputKey}` -> one member's star and rating of one output. */
  judgements: 'judgements',
  /** commentId -> Y.Map of the comment. */
  comments: 'comments',
  /** presetId -> a preset shared to the team, with `by`. */
  presets: 'presets',
  /** prompt text, trimmed -> a prompt shared to the team, with `by`. */
  prompts: 'prompts',
  /** `${memberId}|${outputKey}` -> one member's review of one output (Approve, Needs changes, Reject). */
  reviews: 'reviews',
  /** `${memberId}|${outputKey}` -> one member's tags of one output. */
  tags: 'tags',
  /** searchId -> a search saved to the team (a name and the search box's text), with `by`. */
  searches: 'searches',
} as const;
export type TeamDocRoot = (typeof TEAM_DOC_ROOTS)[keyof typeof TEAM_DOC_ROOTS];

export const isTeamDocRoot = (name: string): name is TeamDocRoot =>
  Object.prototype.hasOwnProperty.call(TEAM_DOC_ROOTS, name);

/** Bounds every value of the document keeps, whoever writes it. */
export const TEAM_DOC_BOUNDS = {
  /** Nesting of one JSON value (objects and arrays inside each other). */
  maxDepth: 16,
  /** One JSON value, encoded (a task with its request and outputs, a preset, a cell). */
  maxValueBytes: 128 * 1024,
  /** One key of a map (a prompt's text is a key of `prompts`, up to the API's 10,000 characters). */
  maxKeyLength: 10_100,
  /** One Y.Text (a board row's prompt: the API's prompt limit). */
  maxTextLength: 10_000,
  /** Elements of one Y.Array (a board's columns, its rows). */
  maxArrayLength: 1_000,
  /** The share of the room's document the records one member owns may take (see ownerOf). */
  memberShare: 0.25,
  /** One member id, task id, board id, comment id. */
  maxIdLength: 200,
} as const;

/** A board's criteria (what its cells are scored on, 1-5 each). */
export const TEAM_DOC_CRITERIA = { maxCriteria: 8, maxNameLength: 80 } as const;

/** One member's tags of one output: at most `maxTags`, each 1 to `maxTagLength` characters. */
export const TEAM_DOC_TAGS = { maxTags: 20, maxTagLength: 40 } as const;

/** A saved search: its name (1 to `maxNameLength` characters) and the search box's text. */
export const TEAM_DOC_SEARCHES = { maxNameLength: 80, maxQueryLength: 500 } as const;

// ---- values ---------------------------------------------------------------------------------------------

const Id = z.string().check(z.minLength(1), z.maxLength(TEAM_DOC_BOUNDS.maxIdLength));
const Time = z.number().check(z.gte(0));
const Text = (max: number) => z.string().check(z.maxLength(max));

/**
 * The shape of each value the server checks. A studio parses what it reads with its own, stricter schemas
 * built on these (a member's studio may be newer: unknown fields pass, `looseObject`); the server needs the
 * fields that say who owns a value and the ones whose shape another studio relies on.
 */
export const TeamDocValues = {
  member: z.looseObject({ name: Text(400), joinedAt: Time }),
  task: z.looseObject({ taskId: Id, by: Id, status: Text(40), createdAt: Time }),
  vote: z.looseObject({ id: Text(500), boardId: Id, rowId: Id, memberId: Id, at: Time }),
  judgement: z.looseObject({
    starred: z.optional(z.boolean()),
    rating: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(5)))),
    updatedAt: z.optional(Time),
  }),
  preset: z.looseObject({ id: Id, by: Id, sharedAt: Time }),
  prompt: z.looseObject({ text: Text(TEAM_DOC_BOUNDS.maxTextLength), by: Id, sharedAt: Time }),
  resolution: z.nullable(z.looseObject({ resolved: z.boolean(), by: Id, at: Time })),
  decision: z.looseObject({ column: Text(300), reason: Text(2_000), by: Id, at: Time }),
  criterion: z.looseObject({ id: Id, name: Text(TEAM_DOC_CRITERIA.maxNameLength) }),
  /** One member's scores on one board: cell key -> criterion id -> 1..5. */
  scoreSheet: z.looseObject({
    cells: z.record(Text(TEAM_DOC_BOUNDS.maxIdLength * 3), z.record(Id, z.int().check(z.gte(1), z.lte(5)))),
    at: Time,
  }),
  review: z.looseObject({
    state: z.enum(['approved', 'changes', 'rejected']),
    note: Text(2_000),
    at: Time,
  }),
  /** The server bounds a tag's length and the list's; the studio reads only the tags of its own shape. */
  tagList: z.looseObject({
    tags: z
      .array(z.string().check(z.minLength(1), z.maxLength(TEAM_DOC_TAGS.maxTagLength)))
      .check(z.maxLength(TEAM_DOC_TAGS.maxTags)),
    at: Time,
  }),
  search: z.looseObject({
    name: z.string().check(z.minLength(1), z.maxLength(TEAM_DOC_SEARCHES.maxNameLength)),
    query: Text(TEAM_DOC_SEARCHES.maxQueryLength),
    by: Id,
    at: Time,
  }),
  any: z.unknown(),
} as const;

// ---- the tree ---------------------------------------------------------------------------------------------

/**
 * Who may write a part of the document (set a value, add or remove an element, type in a text):
 * - 'server': nobody but the server (its migrations);
 * - 'owner': the member who owns the record it belongs to (ownerOf), before and after the change;
 * - 'anyone': any member of the room;
 * - 'self-key': a map entry whose key is the writer's member id (removing one is anyone's: Reveal again);
 * - 'own-key': a map entry whose key is the writer's member id, set and removed by that member alone
 *   (a member's scores on a board);
 * - 'once': set once, by its absence, to the writer's id (a board's createdBy), never changed;
 * - 'version': the schema version, which the server's migrations write. A member's studio may stamp it
 *   only with a version between the room's and this contract's (an older studio stamps the version it
 *   migrated its own copy to before it synced): never beyond what the server knows, never back;
 * - 'append': a list anyone adds to, each element naming its writer (byField), never removed or
 *   replaced, the list itself set once (a board's decisions: their history is the record).
 */
export type Who = 'server' | 'owner' | 'anyone' | 'self-key' | 'own-key' | 'once' | 'version' | 'append';

export type DocNode =
  | { kind: 'map'; entry: (key: string) => DocNode | undefined; who?: Who }
  | { kind: 'array'; item: DocNode; who?: Who }
  | { kind: 'text'; who?: Who }
  | {
      kind: 'value';
      schema: z.ZodMiniType;
      who?: Who;
      /** A field of the value that must name the writer (a resolution's `by`). */
      byField?: string;
    };

const value = (schema: z.ZodMiniType, more: Partial<Extract<DocNode, { kind: 'value' }>> = {}): DocNode => ({
  kind: 'value',
  schema,
  ...more,
});
const any = value(TeamDocValues.any);
const mapOf = (entry: DocNode, who?: Who): DocNode => ({
  kind: 'map',
  entry: () => entry,
  ...(who && { who }),
});
const fields = (byName: Record<string, DocNode>, who?: Who): DocNode => ({
  kind: 'map',
  entry: (key) => (Object.prototype.hasOwnProperty.call(byName, key) ? byName[key] : undefined),
  ...(who && { who }),
});

/**
 * A board's fields (the studio maps them in src/model/compare/board-fields.ts): anyone edits a board, but
 * Reveal is each member's own and createdBy is set once.
 */
const BOARD_NODES = {
  id: value(Id),
  name: value(Text(400)),
  category: value(Text(100)),
  createdAt: value(Time),
  updatedAt: value(Time),
  blind: value(z.boolean()),
  createdBy: value(Id, { who: 'once' }),
  columns: { kind: 'array', item: any },
  rows: { kind: 'array', item: fields({ id: value(Id), prompt: { kind: 'text' } }) },
  shared: mapOf(any),
  perColumn: mapOf(mapOf(any)),
  cells: mapOf(any),
  favourites: mapOf(value(Text(400))),
  notes: mapOf(value(Text(4_000))),
  revealedBy: mapOf(value(Time, { who: 'self-key' })),
  decisions: { kind: 'array', item: value(TeamDocValues.decision, { byField: 'by' }), who: 'append' },
  criteria: { kind: 'array', item: value(TeamDocValues.criterion) },
  scores: mapOf(value(TeamDocValues.scoreSheet, { who: 'own-key' })),
} satisfies Record<string, DocNode>;

export type TeamDocBoardKey = keyof typeof BOARD_NODES;

/**
 * @internal (the studio's field table is checked against it)
 * The keys a board's Y.Map may hold, read off the node the server checks a board with: it refuses any
 * other. The studio's table of a board's fields has one entry for each (src/model/compare/board-fields.ts).
 */
export const TEAM_DOC_BOARD_KEYS = Object.keys(BOARD_NODES) as readonly TeamDocBoardKey[];

const board = fields(BOARD_NODES);

/** A comment (team-comments.ts): its author's, but anyone resolves or reopens its thread. */
const comment = fields({
  id: value(Id),
  target: any,
  parentId: value(z.nullable(Id)),
  author: value(Id),
  body: value(Text(4_000)),
  mentions: value(z.array(Id).check(z.maxLength(50))),
  createdAt: value(Time),
  deleted: value(z.boolean()),
  resolution: value(TeamDocValues.resolution, { who: 'anyone', byField: 'by' }),
});

/** What each root holds: a map of records, each under its key (meta: the server's few keys). */
const ROOT_NODES: Record<TeamDocRoot, DocNode> = {
  meta: fields(
    {
      schemaVersion: value(z.int().check(z.gte(0)), { who: 'version' }),
      // team-history.ts ARCHIVED_BEFORE: the server's watermark of tasks moved to its store.
      archivedBefore: value(Time, { who: 'server' }),
    },
    'server',
  ),
  members: mapOf(value(TeamDocValues.member)),
  tasks: mapOf(value(TeamDocValues.task)),
  boards: mapOf(board),
  votes: mapOf(value(TeamDocValues.vote)),
  judgements: mapOf(value(TeamDocValues.judgement)),
  comments: mapOf(comment),
  presets: mapOf(value(TeamDocValues.preset)),
  prompts: mapOf(value(TeamDocValues.prompt)),
  reviews: mapOf(value(TeamDocValues.review)),
  tags: mapOf(value(TeamDocValues.tagList)),
  searches: mapOf(value(TeamDocValues.search)),
};

/** The node of a root (a Y.Map): what its keys hold. */
export const rootNode = (root: TeamDocRoot): DocNode => ROOT_NODES[root];

/**
 * A record's fields as they are (or as they will be, after a change): for a plain JSON record its
 * properties, for a Y.Map record (a comment, a board) its entries as JSON. Undefined for a field it lacks.
 */
export type Fields = (name: string) => unknown;

/** A JSON record's fields (nothing for a value that is not a plain object). */
export const fieldsOf =
  (json: unknown): Fields =>
  (name) =>
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)[name]
      : undefined;

/**
 * Who owns the record under `key` of `root`: a member id, 'shared' (anyone edits it: a board), 'server'
 * (meta), or null when the record does not say (then no member may write it: it is refused as not theirs).
 * Keys that name their member (votes, judgements, members) must agree with what the value says.
 */
export function ownerOf(root: TeamDocRoot, key: string, field: Fields): string | 'shared' | 'server' | null {
  const str = (name: string) => {
    const v = field(name);
    return typeof v === 'string' ? v : null;
  };
  switch (root) {
    case 'meta':
      return 'server';
    case 'boards':
      return 'shared';
    case 'members':
      return key;
    case 'tasks':
      return str('taskId') === key ? str('by') : null;
    case 'presets':
      return str('id') === key ? str('by') : null;
    case 'prompts':
      return str('by');
    case 'searches':
      // Anyone saves one, in their own name; only its author renames or deletes it.
      return key.length <= TEAM_DOC_BOUNDS.maxIdLength ? str('by') : null;
    case 'votes': {
      const memberId = str('memberId');
      const boardId = str('boardId');
      const rowId = str('rowId');
      return memberId && key === `${boardId}|${rowId}|${memberId}` ? memberId : null;
    }
    case 'judgements':
    case 'reviews':
    case 'tags': {
      const bar = key.indexOf('|');
      return bar > 0 ? key.slice(0, bar) : null;
    }
    case 'comments':
      return str('id') === key ? str('author') : null;
  }
}

/**
 * @internal (shareOf counts with it; a test recounts a room the slow way)
 * Who a record's bytes count against, for each member's share of the room: its owner, or for a board
 * (anyone edits it) the member who created it.
 */
export function payerOf(root: TeamDocRoot, key: string, field: Fields): string | null {
  const owner = ownerOf(root, key, field);
  if (owner === 'server') return null;
  if (owner === 'shared') {
    const by = field('createdBy');
    return typeof by === 'string' ? by : null;
  }
  return owner;
}

/** The room's bytes one member's records may take, for a room of at most `maxDocumentBytes`. */
export const memberShareBytes = (maxDocumentBytes: number): number =>
  Math.floor(maxDocumentBytes * TEAM_DOC_BOUNDS.memberShare);

/** @internal A record's size as the share counts it: its JSON, in UTF-16 code units (a close stand-in for bytes). */
export const recordBytes = (json: unknown): number => JSON.stringify(json ?? null).length;

/**
 * What one record costs and whom, for each member's share of the room: its payer and its size (its JSON
 * and its key). The server (authority.ts RoomShares) and the studio (model/team/team-share.ts) both count
 * with this, so they agree on when a share is full.
 */
export function shareOf(
  root: TeamDocRoot,
  key: string,
  json: unknown,
): { payer: string | null; bytes: number } {
  return { payer: payerOf(root, key, fieldsOf(json)), bytes: recordSize(key, json) };
}

/** A record's size with its key, as the share counts it (shareOf). */
export const recordSize = (key: string, json: unknown): number => recordBytes(json) + key.length;

/**
 * Whether a JSON value stays within the bounds of depth and size, without recursion (a value nested
 * thousands deep must not exhaust the checker's own stack). Answers the broken bound, or null.
 */
export function outOfBounds(json: unknown): 'depth' | 'bytes' | 'kind' | null {
  const stack: Array<[unknown, number]> = [[json, 1]];
  let size = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > TEAM_DOC_BOUNDS.maxDepth) return 'depth';
    if (v === null || typeof v === 'boolean') size += 5;
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'kind';
      size += 8;
    } else if (typeof v === 'string') size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const item of v) stack.push([item, depth + 1]);
    } else if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        size += k.length + 4;
        stack.push([item, depth + 1]);
      }
    } else return 'kind'; // undefined, bigint, a Uint8Array: not JSON
    if (size > TEAM_DOC_BOUNDS.maxValueBytes) return 'bytes';
  }
  return null;
}

/**
 * Whether a record as read from the document is one the contract allows under `key` of `root`: within the
 * bounds, of its root's shape (a plain value's schema; a map record's known fields, each of its schema),
 * and naming an owner its key agrees with. The server refuses every write that breaks this; the studio
 * reads with it too, so a record written before the server checked (or by a server that did not) is left
 * out the same way everywhere.
 */
export function acceptedRecord(root: TeamDocRoot, key: string, json: unknown): boolean {
  if (outOfBounds(json) !== null) return false;
  const root_ = ROOT_NODES[root];
  const record = root_.kind === 'map' ? root_.entry(key) : undefined;
  if (!record) return false;
  if (record.kind === 'value' && !record.schema.safeParse(json).success) return false;
  if (record.kind === 'map') {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return false;
    for (const [name, v] of Object.entries(json as Record<string, unknown>)) {
      const f = record.entry(name);
      if (!f) return false;
      if (f.kind === 'value' && !f.schema.safeParse(v).success) return false;
    }
  }
  return ownerOf(root, key, fieldsOf(json)) !== null;
}

// ---- the version and its migrations -------------------------------------------------------------------

/** What a migration needs of a document: its root maps. A Y.Doc is one. */
export interface MigratableDoc {
  getMap(name: string): {
    get(key: string): unknown;
    set(key: string, value: unknown): unknown;
    delete(key: string): void;
    keys(): IterableIterator<string>;
  };
  transact(edit: () => void, origin?: unknown): void;
}

/** The document's schema version: 0 for a document nobody has stamped yet (or one before versions). */
export function schemaVersionOf(doc: Pick<MigratableDoc, 'getMap'>): number {
  const v = doc.getMap(TEAM_DOC_ROOTS.meta).get('schemaVersion');
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/**
 * One step from version `from` to `from + 1`, run by the server inside one transaction when it loads a
 * room, before any member reads it. It must be idempotent (a cluster's two nodes may both run it on their
 * copies before they sync; Yjs merges both runs).
 */
export interface Migration {
  from: number;
  describe: string;
  run: (doc: MigratableDoc, types: MigrationTypes) => void;
}

/** The shared types a migration may add (the server's Yjs makes them: the contract has no Yjs). */
export interface MigrationTypes {
  array(): unknown;
  map(): unknown;
}

const noTypes = () => {
  throw new Error('This migration adds shared types: pass the types it makes.');
};
const NO_TYPES: MigrationTypes = { array: noTypes, map: noTypes };

/** Gives every board of the document the shared types it lacks under `field` (made by `make`). */
function giveEveryBoard(doc: MigratableDoc, field: string, make: () => unknown): void {
  const boards = doc.getMap(TEAM_DOC_ROOTS.boards);
  for (const id of boards.keys()) {
    const board = boards.get(id) as { get?: unknown; set?: unknown } | undefined;
    if (typeof board?.get !== 'function' || typeof board.set !== 'function') continue;
    const map = board as { get(key: string): unknown; set(key: string, value: unknown): unknown };
    if (map.get(field) === undefined) map.set(field, make());
  }
}

/**
 * @internal
 * The migrations, oldest first. Version 0 -> 1: the first versioned document; nothing to move, the version
 * is stamped. A later version adds a step here with a test that builds a document of the old shape.
 */
export const TEAM_DOC_MIGRATIONS: readonly Migration[] = [
  { from: 0, describe: 'stamp the first schema version', run: () => undefined },
  // Version 2: finished tasks older than the live window live in the server's store (team-history.ts),
  // and `meta.archivedBefore` says up to when. The server's first archive pass moves them right after
  // this step (server/team-space/archiver.ts); a studio of version 1 would share them back into the
  // document, so it is asked to reload (the room is newer than it knows).
  { from: 1, describe: 'move finished tasks past the live window to the server', run: () => undefined },
  // Version 3: a board's decisions (`decisions`, append-only), which a server of version 2 would refuse
  // as an unknown field; and the judgements and comment threads of stored tasks follow them into the store once quiet
  // (server/team-space/archive.ts planAttached). A studio of version 3 never deletes a judgement or a
  // comment (it writes a blank judgement, a body-less comment), so a deletion it sees is that move and it
  // keeps what it showed; one of version 2 would take the move for an un-star or a deleted comment (and
  // mirror the un-star into the member's own device), so it is asked to reload.
  {
    from: 2,
    describe: "give every board its list of decisions; move stored tasks' quiet judgements and comments",
    // Every board gets its list now, so two members' first decisions go into one list (each making
    // its own at once, one list would replace the other, which the server refuses: 'append').
    run: (doc, types) => giveEveryBoard(doc, 'decisions', () => types.array()),
  },
  // Version 4: a board's criteria (`criteria`, a list anyone edits) and each member's scores of its cells
  // (`scores`, one sheet per member, their own: 'own-key'), and the `reviews` root; a server of version 3
  // would refuse all three as unknown. Every board gets its list and map now, so two members' first
  // criteria or scores go into one (made at once by each, one would replace the other).
  {
    from: 3,
    describe: 'give every board its criteria and scores; add reviews',
    run: (doc, types) => {
      giveEveryBoard(doc, 'criteria', () => types.array());
      giveEveryBoard(doc, 'scores', () => types.map());
    },
  },
  // Version 5: the `tags` root (each member's tags of an output, under their own key, as reviews) and the
  // `searches` root (searches saved to the team, each its author's); a server of version 4 would refuse
  // both as unknown, so the studio writes neither in a room before version 5. Roots are made on first
  // use: nothing to add here, the version is stamped.
  { from: 4, describe: 'add tags and saved searches', run: () => undefined },
];

export type MigrationResult =
  | { kind: 'current'; version: number }
  | { kind: 'upgraded'; from: number; to: number }
  /** Written by a newer server: left as it is (the studio asks to be reloaded). */
  | { kind: 'newer'; version: number };

/** Brings the document up to `target` with the migrations, one transaction per step. */
export function migrateTeamDoc(
  doc: MigratableDoc,
  migrations: readonly Migration[] = TEAM_DOC_MIGRATIONS,
  target = TEAM_DOC_VERSION,
  origin: unknown = 'migration',
  types: MigrationTypes = NO_TYPES,
): MigrationResult {
  const start = schemaVersionOf(doc);
  if (start > target) return { kind: 'newer', version: start };
  if (start === target) return { kind: 'current', version: start };
  for (let v = start; v < target; v++) {
    const step = migrations.find((m) => m.from === v);
    if (!step) throw new Error(`No migration from team-space schema version ${v}.`);
    doc.transact(() => {
      step.run(doc, types);
      doc.getMap(TEAM_DOC_ROOTS.meta).set('schemaVersion', v + 1);
    }, origin);
  }
  return { kind: 'upgraded', from: start, to: target };
}
