import type * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';

// The team space's shared document (docs/team-space.md): one Yjs document per room, a team's
// (every key of the team) or one personal key's (one person's devices). This module names its parts and
// keeps its schema version; each part's mapping to the studio's model lives in a module of its own
// beside this one (team-tasks.ts, team-boards.ts, ...). No merge logic of ours: Yjs merges.
//
// Every record that one member owns alone (a task, a vote, a judgement, a preset) is a plain JSON value
// under its id in a top-level Y.Map: the last write wins, and only its owner writes it. What several
// members edit at once (a board, a comment's thread state) is a nested Y.Map or Y.Array, so concurrent
// edits of different parts both survive. Values read from the document are parsed with zod, never
// trusted: another member's studio (or a hostile client) wrote them.

/**
 * The version this studio writes. A document of an older version is upgraded (migrate), never dropped.
 * @internal
 */
export const SCHEMA_VERSION = 1;

/** The top-level shared types, by name. Renaming one orphans its data: add a migration instead. */
export const ROOTS = {
  /** schemaVersion, and the version of the studio that last migrated it. */
  meta: 'meta',
  /** memberId -> { name, joinedAt } (memberId: the key's id from GET /me). */
  members: 'members',
  /** taskId -> the task as the team sees it (team-tasks.ts). */
  tasks: 'tasks',
  /** boardId -> Y.Map of the board (team-boards.ts). */
  boards: 'boards',
  /** `${boardId}|${rowId}|${memberId}` -> one member's blind vote on one row (team-votes.ts). */
  votes: 'votes',
  /** `${memberId}|${outputKey}` -> one member's star and rating of one output (team-judgements.ts). */
  judgements: 'judgements',
  /** commentId -> Y.Map of the comment (team-comments.ts). */
  comments: 'comments',
  /** presetId -> a preset shared to the team (team-library.ts). */
  presets: 'presets',
  /** prompt text -> a prompt shared to the team (team-library.ts). */
  prompts: 'prompts',
} as const;

/**
 * What a part of the document needs to map the studio's model onto it: the document, who this member
 * is, the origin their own edits carry (an UndoManager tracks only it), the presence of everyone in
 * the room, and a clock. TeamSpace (team-space.ts) is the one implementation; tests make their own.
 */
export interface TeamContext {
  readonly doc: Y.Doc;
  /** The key's id from GET /me: every key of a team is a member; one personal key is one member. */
  readonly memberId: string;
  readonly origin: object;
  readonly awareness: Awareness;
  readonly now: () => number;
  /** Runs `edit` as one transaction of this member's (one undo step, one update on the wire). */
  transact(edit: () => void): void;
}

export type RootName = (typeof ROOTS)[keyof typeof ROOTS];

export const rootMap = <T = unknown>(doc: Y.Doc, name: RootName): Y.Map<T> => doc.getMap<T>(name);

/**
 * The document's schema version: 0 for a document no studio has written yet (or one before versions).
 * @internal
 */
export function schemaVersionOf(doc: Y.Doc): number {
  const v = rootMap(doc, ROOTS.meta).get('schemaVersion');
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/**
 * One step from version `from` to `from + 1`, run inside one transaction. A step must be idempotent and
 * commutative with itself: two members' studios may run the same step on their copies before they sync,
 * and Yjs merges both runs.
 */
export interface Migration {
  from: number;
  describe: string;
  run: (doc: Y.Doc) => void;
}

/**
 * The migrations, oldest first. Version 0 -> 1: the first versioned document; nothing to move, the
 * version is stamped. Later versions add a step here (with a test in team-doc.test.ts that builds a
 * document of the old shape and checks the new one).
 * @internal
 */
export const MIGRATIONS: readonly Migration[] = [
  { from: 0, describe: 'stamp the first schema version', run: () => undefined },
];

export type MigrationResult =
  | { kind: 'current'; version: number }
  | { kind: 'upgraded'; from: number; to: number }
  /** Written by a newer studio: left as it is, read as far as this studio understands it. */
  | { kind: 'newer'; version: number };

/** Brings the document up to SCHEMA_VERSION with the migrations, in one transaction per step. */
export function migrate(
  doc: Y.Doc,
  migrations: readonly Migration[] = MIGRATIONS,
  target = SCHEMA_VERSION,
  origin: unknown = 'migration',
): MigrationResult {
  const start = schemaVersionOf(doc);
  if (start > target) return { kind: 'newer', version: start };
  if (start === target) return { kind: 'current', version: start };
  for (let v = start; v < target; v++) {
    const step = migrations.find((m) => m.from === v);
    if (!step) throw new Error(`No migration from team-space schema version ${v}.`);
    doc.transact(() => {
      step.run(doc);
      rootMap(doc, ROOTS.meta).set('schemaVersion', v + 1);
    }, origin);
  }
  return { kind: 'upgraded', from: start, to: target };
}
