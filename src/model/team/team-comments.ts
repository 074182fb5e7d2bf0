import { acceptedRecord } from '../../../contract/team-doc';
import { t } from '@lingui/core/macro';
import * as Y from 'yjs';
import { formatCount } from '../../lib/format';
import { parseMentions, type MemberName } from './mentions';
import {
  CommentTargetSchema,
  MAX_COMMENT_LENGTH,
  TeamCommentSchema,
  threadsOf,
  type CommentTarget,
  type CommentThread,
  type Resolution,
  type TeamComment,
} from './comment-types';
import { EarlierSaid } from './team-attached';
import { movesSaid, ROOTS, rootMap, type TeamContext } from './team-doc';
import { Listeners } from '../../lib/store';

// Comments in the team space (docs/team-space.md "Judgements and comments"): one Y.Map per comment under its
// id in the `comments` root (docs/team-space.md). A comment's own fields are written once, by its author;
// the thread's state (`resolution`, on its first comment) is written by anyone, so it is a key of that
// Y.Map: a concurrent resolve and reopen end as one of the two (Yjs's last writer), whole, on every
// copy. Replies are comments with a parentId (one level), so two members replying at once add two
// keys to the root and both survive. Every value read back is parsed (comment-types.ts).
// Threads on earlier tasks' outputs leave the document for the server's store once quiet (EarlierSaid):
// they are read from there, still answered (a reply is a comment of the document's), no longer resolved
// or deleted (the first comment is no longer in the document to write).

/** @internal */
export class CommentInputError extends Error {}

/** The body as it is kept: trimmed, not empty, at most MAX_COMMENT_LENGTH characters. */
function cleanBody(body: string): string {
  const text = body.trim();
  if (!text) throw new CommentInputError(t`A comment needs some text.`);
  if (text.length > MAX_COMMENT_LENGTH) {
    const max = formatCount(MAX_COMMENT_LENGTH);
    throw new CommentInputError(t`A comment has at most ${max} characters.`);
  }
  return text;
}

const newId = (): string => `c_${crypto.randomUUID()}`;
const MAX_MENTIONS = 50;

/**
 * The comments of a room, read from and written to its document. Constructed from the TeamContext (the
 * TeamSpace handle): it observes the `comments` root from then on; `destroy` stops it.
 */
export class TeamComments {
  private readonly root: Y.Map<unknown>;
  private readonly byId = new Map<string, TeamComment>();
  private list: readonly TeamComment[] = [];
  private readonly listeners = new Listeners();
  private readonly stopSaid: () => void;

  constructor(
    private readonly ctx: TeamContext,
    private readonly makeId: () => string = newId,
    /** What the server moved out of the document with earlier tasks: read under the document's own. */
    private readonly said: EarlierSaid = new EarlierSaid(),
  ) {
    this.root = rootMap(ctx.doc, ROOTS.comments);
    for (const id of this.root.keys()) this.read(id);
    for (const id of said.commentIds()) if (!this.root.has(id)) this.read(id);
    this.list = this.sorted();
    this.root.observeDeep(this.onChange);
    this.stopSaid = said.observe(({ comments }) => this.reread(comments));
  }

  destroy(): void {
    this.root.unobserveDeep(this.onChange);
    this.stopSaid();
    this.listeners.clear();
  }

  subscribe = this.listeners.subscribe;

  /** Every comment of the room, oldest first. Immutable: a new array after each change. */
  snapshot = (): readonly TeamComment[] => this.list;

  get(id: string): TeamComment | undefined {
    return this.byId.get(id);
  }

  /** Whether the comment was moved out of the document with its task: it can no longer change. */
  isEarlier(id: string): boolean {
    return this.byId.has(id) && !this.root.has(id);
  }

  /** The threads on one target (an output, a board cell), oldest first. */
  threads(target: CommentTarget): CommentThread[] {
    return threadsOf(this.list, target);
  }

  /**
   * Starts a thread on `target`; "@Display name" in the body mentions those of `members`. Returns the
   * new comment's id. Throws CommentInputError for an empty or too long body.
   */
  add(target: CommentTarget, body: string, members: readonly MemberName[] = []): string {
    const parsed = CommentTargetSchema.parse(target);
    return this.write(parsed, null, body, members);
  }

  /** Replies in the thread of `commentId` (a reply to a reply joins the same thread). */
  reply(commentId: string, body: string, members: readonly MemberName[] = []): string {
    const root = this.rootOf(commentId);
    if (!root) throw new CommentInputError(t`That comment is no longer there.`);
    return this.write(root.target, root.id, body, members);
  }

  /** Resolves the thread `commentId` is in. Anyone in the room may. */
  resolve(commentId: string): void {
    this.setResolution(commentId, true);
  }

  /** Opens a resolved thread again. Anyone in the room may. */
  reopen(commentId: string): void {
    this.setResolution(commentId, false);
  }

  /**
   * Deletes one of this member's own comments: it stays as a body-less placeholder (a thread's first
   * comment keeps its replies their thread; threadsOf shows no other). A room whose server does not move
   * comments (movesSaid) has the others removed.
   */
  delete(commentId: string): void {
    const comment = this.byId.get(commentId);
    if (!comment || comment.author !== this.ctx.memberId) return;
    const hasReplies = this.list.some((c) => c.parentId === commentId);
    const map = this.root.get(commentId);
    this.ctx.transact(() => {
      if ((hasReplies || movesSaid(this.ctx.doc)) && map instanceof Y.Map) {
        map.set('deleted', true);
        map.set('body', '');
        map.set('mentions', []);
      } else this.root.delete(commentId);
    });
  }

  private write(
    target: CommentTarget,
    parentId: string | null,
    body: string,
    members: readonly MemberName[],
  ) {
    const text = cleanBody(body);
    const id = this.makeId();
    const comment = new Y.Map<unknown>();
    // A prelim Y.Map takes its fields before it is added: the comment arrives whole, in one update.
    comment.set('id', id);
    comment.set('target', target);
    comment.set('parentId', parentId);
    comment.set('author', this.ctx.memberId);
    comment.set('body', text);
    // The contract keeps at most 50 mentions (contract/team-doc.ts); the server refuses more.
    comment.set('mentions', parseMentions(text, members).slice(0, MAX_MENTIONS));
    comment.set('createdAt', this.ctx.now());
    this.ctx.transact(() => this.root.set(id, comment));
    return id;
  }

  private rootOf(commentId: string): TeamComment | undefined {
    const c = this.byId.get(commentId);
    if (!c?.parentId) return c;
    const parent = this.byId.get(c.parentId);
    return parent?.parentId ? this.byId.get(parent.parentId) : parent;
  }

  private setResolution(commentId: string, resolved: boolean) {
    const root = this.rootOf(commentId);
    const map = root && this.root.get(root.id);
    if (!(map instanceof Y.Map)) return;
    const resolution: Resolution = { resolved, by: this.ctx.memberId, at: this.ctx.now() };
    this.ctx.transact(() => map.set('resolution', resolution));
  }

  /**
   * Reads one comment into byId, the document's or else the one moved out of it (or forgets it when it
   * is gone or does not parse).
   */
  private read(id: string) {
    const map = this.root.get(id);
    const json: unknown = this.root.has(id)
      ? map instanceof Y.Map
        ? map.toJSON()
        : undefined
      : this.said.comment(id);
    const parsed =
      json !== undefined && acceptedRecord('comments', id, json) ? TeamCommentSchema.safeParse(json) : null;
    // The id inside must be the key it sits under: a copy under another key would count twice.
    if (parsed?.success && parsed.data.id === id) this.byId.set(id, parsed.data);
    else this.byId.delete(id);
  }

  private sorted(): readonly TeamComment[] {
    return [...this.byId.values()].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  private onChange = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>) => {
    const touched = new Set<string>();
    for (const event of events) {
      if (event.path.length === 0 && event instanceof Y.YMapEvent) {
        for (const [id, change] of event.changes.keys) {
          touched.add(id);
          // A deletion is the server's move (movesSaid): the comment as it was shown stays.
          const shown = this.byId.get(id);
          if (change.action === 'delete' && shown && movesSaid(this.ctx.doc))
            this.said.keepComment(id, shown);
        }
      } else if (typeof event.path[0] === 'string') touched.add(event.path[0]);
    }
    this.reread(touched);
  };

  private reread(ids: Iterable<string>): void {
    let any = false;
    for (const id of ids) {
      this.read(id);
      any = true;
    }
    if (!any) return;
    this.list = this.sorted();
    this.listeners.notify();
  }
}
