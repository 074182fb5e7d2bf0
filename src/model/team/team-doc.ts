import type * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';
import { schemaVersionOf, TEAM_DOC_ROOTS, type TeamDocRoot } from '../../../contract/team-doc';

// The team space's shared document (docs/team-space.md): one Yjs document per room, a team's
// (every key of the team) or one personal key's (one person's devices). Its roots, the shape and bounds
// of each value, who may write what, its schema version and migrations are a contract
// (contract/team-doc.ts) that the server enforces: it refuses a whole change that breaks it, and it
// migrates a room when it loads it (the studio never writes `meta`). Each part's mapping to the studio's
// model lives in a module of its own beside this one (team-tasks.ts, team-boards.ts, ...). No merge
// logic of ours: Yjs merges.
//
// Every record that one member owns alone (a task, a vote, a judgement, a preset) is a plain JSON value
// under its id in a top-level Y.Map: the last write wins, and only its owner writes it. What several
// members edit at once (a board, a comment's thread state) is a nested Y.Map or Y.Array, so concurrent
// edits of different parts both survive. Values read from the document are parsed with zod, never
// trusted: another member's studio (or a hostile client) wrote them.

/** The top-level shared types, by name (the contract's). */
export const ROOTS = TEAM_DOC_ROOTS;

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

/**
 * Whether the room's server moves judgements and comments with stored tasks (schema version 3): there a
 * studio never deletes either, so a deletion it sees is the move (contract/team-doc.ts TEAM_DOC_MIGRATIONS).
 */
export const movesSaid = (doc: Y.Doc): boolean => schemaVersionOf(doc) >= 3;

export const rootMap = <T = unknown>(doc: Y.Doc, name: TeamDocRoot): Y.Map<T> => doc.getMap<T>(name);
