import * as Y from 'yjs';
import { migrate, type MigrationResult } from './team-doc';

// One member's handle on their room's shared document (issue 23): the Y.Doc, who this member is, and the
// origin their own edits carry (so an UndoManager undoes only theirs, never another member's). The
// connection (provider and IndexedDB) is team-connection.ts; the stores that map the studio's model onto
// the document (tasks, boards, votes, judgements, comments, library, members) take this handle.
// Loaded on demand (the first load of the studio carries no Yjs).

export interface TeamMemberId {
  /** The key's id from GET /me: every key of a team is a member; one personal key is one member. */
  memberId: string;
}

export class TeamSpace {
  /** The origin of this member's own edits (transactions): Y.UndoManager tracks only these. */
  readonly origin: { member: string };

  constructor(
    readonly doc: Y.Doc,
    readonly memberId: string,
    readonly now: () => number = Date.now,
  ) {
    this.origin = { member: memberId };
  }

  /**
   * Upgrades the document to this studio's schema. Called once the document holds what this device kept
   * (IndexedDB) and, when online, what the server holds: migrating an empty copy first would stamp the
   * new version over an old document that had not arrived yet.
   */
  upgrade(): MigrationResult {
    return migrate(this.doc);
  }

  /** Runs `edit` as one transaction of this member's (one undo step, one update on the wire). */
  transact(edit: () => void): void {
    this.doc.transact(edit, this.origin);
  }
}
