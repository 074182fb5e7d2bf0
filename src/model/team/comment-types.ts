import { z } from 'zod/mini';

// What a comment is (docs/team-space.md "Judgements and comments"), as the studio reads it from the team's
// document: the schema every value is parsed with (another member's studio or a hostile client wrote
// it) and the plain types the views use. No Yjs here, so the comments view and the notices load
// without the team space's engine; team-comments.ts maps these onto the document.

/** The longest body a comment may have, in characters (the server bounds whole messages too). */
export const MAX_COMMENT_LENGTH = 4_000;
const MAX_ID = 100;
const MAX_MENTIONS = 50;

const Id = z.string().check(z.minLength(1), z.maxLength(MAX_ID));

/** What a comment is about: one output (`${taskId}#${index}`), or one cell of a compare board. */
export const CommentTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('output'), outputKey: z.string().check(z.regex(/^.+#\d+$/), z.maxLength(300)) }),
  z.object({
    kind: z.literal('cell'),
    boardId: z.string().check(z.minLength(1), z.maxLength(200)),
    cellKey: z.string().check(z.minLength(1), z.maxLength(300)),
  }),
]);
export type CommentTarget = z.infer<typeof CommentTargetSchema>;

/** Resolved or reopened, by whom and when: one value, so concurrent resolve and reopen keep one whole. */
const ResolutionSchema = z.object({ resolved: z.boolean(), by: Id, at: z.number() });
export type Resolution = z.infer<typeof ResolutionSchema>;

export const TeamCommentSchema = z.object({
  id: Id,
  target: CommentTargetSchema,
  /** The comment this one replies to (always a thread's first comment), or null for a new thread. */
  parentId: z._default(z.nullable(Id), null),
  /** The author's member id (the key's id from GET /me). */
  author: Id,
  body: z.string().check(z.maxLength(MAX_COMMENT_LENGTH)),
  /** Member ids the body mentions, resolved from "@Display name" when it was written. */
  mentions: z._default(z.array(Id).check(z.maxLength(MAX_MENTIONS)), []),
  createdAt: z.number(),
  /** On a thread's first comment only; absent until someone resolves it. */
  resolution: z._default(z.nullable(ResolutionSchema), null),
  /** A comment its author deleted: kept without its body (a first comment keeps its replies their thread). */
  deleted: z._default(z.boolean(), false),
});
export type TeamComment = z.infer<typeof TeamCommentSchema>;

/** A thread: its first comment, the replies in time order, and whether it is resolved. */
export interface CommentThread {
  root: TeamComment;
  replies: readonly TeamComment[];
  resolved: boolean;
  /** Who resolved or reopened it last, and when (null when nobody has). */
  resolution: Resolution | null;
}

const sameTarget = (a: CommentTarget, b: CommentTarget): boolean =>
  a.kind === 'output'
    ? b.kind === 'output' && a.outputKey === b.outputKey
    : b.kind === 'cell' && a.boardId === b.boardId && a.cellKey === b.cellKey;

/**
 * The threads on one target, oldest first, replies in time order. A reply whose first comment is
 * missing (deleted while the reply was being written elsewhere) is shown as a thread of its own.
 */
export function threadsOf(comments: readonly TeamComment[], target: CommentTarget): CommentThread[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (c: TeamComment) => {
    const parent = c.parentId ? byId.get(c.parentId) : undefined;
    // One level of replies: a reply to a reply (a hostile or older client) joins its parent's thread.
    return parent ? (parent.parentId ? (byId.get(parent.parentId) ?? parent) : parent) : c;
  };
  const threads = new Map<string, { root: TeamComment; replies: TeamComment[] }>();
  const ordered = [...comments].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  for (const c of ordered) {
    const root = rootOf(c);
    if (!sameTarget(root.target, target)) continue;
    let thread = threads.get(root.id);
    if (!thread) threads.set(root.id, (thread = { root, replies: [] }));
    // A deleted reply stays in the document as a placeholder (team-comments.ts delete): not shown.
    if (root !== c && !c.deleted) thread.replies.push(c);
  }
  return [...threads.values()]
    .filter((t) => !(t.root.deleted && t.replies.length === 0))
    .sort((a, b) => a.root.createdAt - b.root.createdAt || (a.root.id < b.root.id ? -1 : 1))
    .map((t) => ({ ...t, resolved: t.root.resolution?.resolved === true, resolution: t.root.resolution }));
}
