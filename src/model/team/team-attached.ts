import type { TaskAttachments } from '../../../contract/team-history';

// What the team said about its earlier tasks (docs/team-space.md "History at scale"): judgements and
// comment threads the server moved out of the room's document with their tasks, or after them. Two
// sources fill it: the pages of earlier tasks (TeamArchive), and the document itself, as the move
// deletes what a member has on screen (TeamJudgements and TeamComments keep what they showed: a member
// of this schema version never deletes either, so a deletion is the move). TeamJudgements and
// TeamComments read it under the document: a key the document holds wins. Values are as the document
// held them: each reader parses them with the contract and its schema, as it parses the document's.

/** What changed: judgement keys and comment ids. */
export interface SaidChange {
  judgements: readonly string[];
  comments: readonly string[];
}

export class EarlierSaid {
  private readonly judgements = new Map<string, unknown>();
  private readonly comments = new Map<string, unknown>();
  private readonly listeners = new Set<(change: SaidChange) => void>();

  /** Hears each change with what it touched. */
  observe(listener: (change: SaidChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  judgement(key: string): unknown {
    return this.judgements.get(key);
  }

  judgementKeys(): IterableIterator<string> {
    return this.judgements.keys();
  }

  comment(id: string): unknown {
    return this.comments.get(id);
  }

  commentIds(): IterableIterator<string> {
    return this.comments.keys();
  }

  /** What a page of earlier tasks brought. */
  add(items: readonly TaskAttachments[]): void {
    const judgements: string[] = [];
    const comments: string[] = [];
    for (const item of items) {
      for (const [key, value] of Object.entries(item.judgements)) {
        this.judgements.set(key, value);
        judgements.push(key);
      }
      for (const [id, value] of Object.entries(item.comments)) {
        this.comments.set(id, value);
        comments.push(id);
      }
    }
    this.notify({ judgements, comments });
  }

  /**
   * What the document held until the move deleted it (the caller has read it already: no change is
   * announced).
   */
  keepJudgement(key: string, value: unknown): void {
    this.judgements.set(key, value);
  }

  keepComment(id: string, value: unknown): void {
    this.comments.set(id, value);
  }

  private notify(change: SaidChange): void {
    if (change.judgements.length === 0 && change.comments.length === 0) return;
    for (const listener of [...this.listeners]) listener(change);
  }
}
