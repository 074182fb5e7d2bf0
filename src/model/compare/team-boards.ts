import * as Y from 'yjs';
import { z } from 'zod/mini';
import {
  BoardSchema,
  DecisionSchema,
  ScoreSheetSchema,
  withScore,
  type Board,
  type Decision,
} from './boards';
import { schemaVersionOf } from '../../../contract/team-doc';
import { ROOTS, rootMap, type TeamContext } from '../team/team-doc';
import { readBoard, TEAM_CONNECTION, writeBoard, type TeamBoard } from './board-fields';
import { childArray, childMap } from '../team/yjs-diff';
import { Listeners } from '../../lib/store';

// Compare boards shared by a team (docs/team-space.md, `boards`): each board is a Y.Map under the
// `boards` root, mapped to the studio's Board and back by the table of its fields (board-fields.ts). This
// store reads the boards as they change, saves a Board into its map (only what changed), and runs what
// only a team does with a board: each member's reveal, decisions, scores, undo of their own edits, and
// who has a board open.

// What the rest of the studio takes from here, and what this module's tests check of the mapping.
export { TEAM_CONNECTION, type TeamBoard } from './board-fields';
/** @internal */
export { blankRowId } from './board-fields';
/** @internal */
export { setText, wellFormed } from '../team/yjs-diff';

/**
 * Whether `memberId` sees this board blind: blind until they themselves reveal it.
 * @internal
 */
export const blindFor = (record: TeamBoard, memberId: string): boolean =>
  record.board.blind && record.revealedBy[memberId] === undefined;

type Listener = () => void;

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
    this.team.transact(() => writeBoard(map, parsed, { part: 'tracked' }));
    // The cells (a paid run each) under an origin of this member's that no undo tracks.
    this.team.doc.transact(() => writeBoard(map, parsed, { part: 'untracked' }), this.runOrigin);
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
   * A new board's map, created by this member, with the lists and maps made with a board where the room
   * keeps them (decisions, criteria, scores: so two members' first entries go into one).
   */
  private addBoard(board: Board): Y.Map<unknown> {
    const map = new Y.Map<unknown>();
    this.root.set(board.id, map);
    writeBoard(map, board, { createdBy: this.team.memberId });
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
