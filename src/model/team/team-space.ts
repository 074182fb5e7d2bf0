import { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import type { TeamContext } from './team-doc';

// One member's handle on their room's shared document (docs/team-space.md): the Y.Doc, who this member is,
// the origin their own edits carry (so an UndoManager undoes only theirs, never another member's), and the
// room's presence (awareness). The connection (provider and IndexedDB) is team-connection.ts; the
// stores that map the studio's model onto the document (tasks, boards, votes, judgements, comments,
// library, members) are made here from this handle, so features only ever import their types.
// Loaded on demand: the first load of the studio carries no Yjs.

export class TeamSpace implements TeamContext {
  readonly origin: { member: string };
  readonly awareness: Awareness;

  constructor(
    readonly doc: Y.Doc,
    readonly memberId: string,
    readonly now: () => number = Date.now,
  ) {
    this.origin = { member: memberId };
    this.awareness = new Awareness(doc);
  }

  transact(edit: () => void): void {
    this.doc.transact(edit, this.origin);
  }

  destroy(): void {
    this.awareness.destroy();
  }
}
