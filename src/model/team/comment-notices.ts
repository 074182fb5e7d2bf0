import { z } from 'zod/mini';
import type { TeamComment } from './comment-types';

// "A member is told of new comments on their results" (docs/team-space.md "Judgements and comments"): which
// of the room's comments this member has not been told of yet, pure, from the comments, which outputs are
// this member's (the caller knows: the team history says who made a task) and what they have seen.
// What they have seen is a mark kept on this device per member: a time, plus the ids seen shortly
// before it, because createdAt comes from the author's clock and clocks disagree; a comment stamped a
// little before the mark (a slow clock) is still told of once, not never.

/**
 * How far another member's clock may lag this one's and their comment still be told of.
 * @internal
 */
export const CLOCK_SLACK_MS = 10 * 60_000;

export interface SeenMark {
  /** Comments created before this (minus the slack) are seen. */
  upTo: number;
  /** Comments seen that were created within the slack before upTo: [id, createdAt]. */
  recent: ReadonlyArray<readonly [string, number]>;
}

const SeenMarkSchema = z.object({
  upTo: z.number(),
  recent: z._default(z.array(z.tuple([z.string(), z.number()])).check(z.maxLength(5_000)), []),
});

type NoticeReason = 'your-output' | 'mention';

export interface CommentNotice {
  comment: TeamComment;
  /** Why this member is told: a comment on one of their outputs, a mention of them, or both. */
  reasons: readonly NoticeReason[];
  /** The output it is on (to open it), or null for a board cell. */
  outputKey: string | null;
}

export interface NoticeOptions {
  memberId: string;
  /** Whether an output is this member's (their task made it). */
  isMine: (outputKey: string) => boolean;
  seen: SeenMark;
}

const isSeen = (c: TeamComment, seen: SeenMark) =>
  c.createdAt <= seen.upTo - CLOCK_SLACK_MS || seen.recent.some(([id]) => id === c.id);

/**
 * The comments this member is to be told of, oldest first: by another member, not deleted, not seen,
 * and on one of this member's outputs or mentioning them. Their own comments never notify.
 */
export function commentNotices(comments: readonly TeamComment[], options: NoticeOptions): CommentNotice[] {
  const { memberId, isMine, seen } = options;
  const notices: CommentNotice[] = [];
  for (const comment of comments) {
    if (comment.author === memberId || comment.deleted || isSeen(comment, seen)) continue;
    const outputKey = comment.target.kind === 'output' ? comment.target.outputKey : null;
    const reasons: NoticeReason[] = [];
    if (outputKey !== null && isMine(outputKey)) reasons.push('your-output');
    if (comment.mentions.includes(memberId)) reasons.push('mention');
    if (reasons.length) notices.push({ comment, reasons, outputKey });
  }
  return notices;
}

/**
 * The mark once `comments` are seen too. The time moves to the newest of them, but never past `now`
 * (a comment stamped in the future by a wrong clock must not hide the ones that follow it).
 */
export function markSeen(seen: SeenMark, comments: readonly TeamComment[], now: number): SeenMark {
  let upTo = seen.upTo;
  for (const c of comments) upTo = Math.max(upTo, Math.min(c.createdAt, now));
  const recent = new Map(seen.recent.map(([id, at]) => [id, at] as const));
  for (const c of comments) recent.set(c.id, c.createdAt);
  const kept = [...recent].filter(([, at]) => at > upTo - CLOCK_SLACK_MS);
  return { upTo, recent: kept };
}

/** Where the mark is kept: localStorage, per member (the same key's member on this device). */
export const seenStorageKey = (memberId: string): string => `media-studio:team-comments-seen:${memberId}`;

/**
 * The stored mark, parsed; a member with none yet starts from `now`, so turning the team space on
 * does not tell of every comment the team ever made.
 */
export function loadSeen(
  storage: Pick<Storage, 'getItem'> | undefined,
  memberId: string,
  now: number,
): SeenMark {
  try {
    const raw = storage?.getItem(seenStorageKey(memberId));
    const parsed = raw ? SeenMarkSchema.safeParse(JSON.parse(raw)) : null;
    if (parsed?.success) return parsed.data;
  } catch {
    // Unreadable (storage blocked, or a value that is not JSON): start afresh.
  }
  return { upTo: now, recent: [] };
}

export function saveSeen(
  storage: Pick<Storage, 'setItem'> | undefined,
  memberId: string,
  seen: SeenMark,
): void {
  try {
    storage?.setItem(seenStorageKey(memberId), JSON.stringify(seen));
  } catch {
    // Storage full or blocked: the notices come again after a reload, which is the lesser harm.
  }
}
