import { Trans, useLingui } from '@lingui/react/macro';
import { CheckCircle2, MessageSquare, RotateCcw, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { cn } from '../../lib/cn';
import { formatCount, formatDateTime } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import {
  MAX_COMMENT_LENGTH,
  threadsOf,
  type CommentTarget,
  type CommentThread,
  type TeamComment,
} from '../../model/team/comment-types';
import { splitMentions, type MemberName } from '../../model/team/mentions';
import type { TeamComments } from '../../model/team/team-comments';
import { relativeTime, useClock } from './relative-time';

// Region "Comments" (docs/team-space.md; product-notes §5 names "Comments", "Add comment",
// "Resolve"): the threads on one output (in the Viewer) or one board cell, replies, "@Display name"
// mentions and Resolve / Reopen. Display names and bodies are other members' untrusted text: rendered
// as React text only (never HTML), without bidi controls. The store comes from the app as a prop (the
// team space loads on demand), so this module imports its type only and no Yjs.

export interface CommentsRegionProps {
  comments: TeamComments;
  target: CommentTarget;
  /** This member (their comments can be deleted; they are not offered to themselves as a mention). */
  memberId: string;
  /** A member's display name (untrusted) from their id; a fallback for members who left. */
  memberName: (memberId: string) => string;
  /** Who can be mentioned: the room's members, with their display names. */
  members: readonly MemberName[];
  className?: string;
}

/**
 * A member's display name, or `someone` ("A member") for one without. Names go into messages through
 * `t` (its result is text, rendered as text), never as a string value of a <Trans>: Lingui would read a
 * "<0>…</0>" in that value as the message's own markup.
 */
const nameOf = (memberName: (id: string) => string, id: string, someone: string) =>
  displayText(memberName(id)) || someone;

export function CommentsRegion({
  comments,
  target,
  memberId,
  memberName,
  members,
  className,
}: CommentsRegionProps) {
  const all = useSyncExternalStore(comments.subscribe, comments.snapshot);
  const threads = useMemo(() => threadsOf(all, target), [all, target]);
  const now = useClock();
  const { t } = useLingui();
  const open = threads.filter((thread) => !thread.resolved).length;
  const openCount = formatCount(open);
  const resolvedCount = formatCount(threads.length - open);
  const others = useMemo(() => members.filter((m) => m.id !== memberId), [members, memberId]);

  return (
    <section aria-label={t`Comments`} className={cn('flex flex-col gap-3', className)}>
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <MessageSquare className="size-4" aria-hidden="true" />
        <Trans>Comments</Trans>
        {threads.length > 0 && (
          <span className="text-xs font-normal text-slate-600 tabular-nums dark:text-slate-400">
            {threads.length > open
              ? t({
                  message: `${openCount} open, ${resolvedCount} resolved`,
                  comment: 'counts of comment threads: still open, resolved',
                })
              : t({ message: `${openCount} open`, comment: 'a count of comment threads still open' })}
          </span>
        )}
      </h3>
      {threads.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Trans>No comments yet.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {threads.map((thread) => (
            <li key={thread.root.id}>
              <Thread
                thread={thread}
                comments={comments}
                memberId={memberId}
                memberName={memberName}
                members={members}
                mentionable={others}
                now={now}
              />
            </li>
          ))}
        </ul>
      )}
      <Composer
        label={t`Comment`}
        submitLabel={t`Add comment`}
        mentionable={others}
        onSubmit={(body) => comments.add(target, body, members)}
      />
    </section>
  );
}

function Thread({
  thread,
  comments,
  memberId,
  memberName,
  members,
  mentionable,
  now,
}: {
  thread: CommentThread;
  comments: TeamComments;
  memberId: string;
  memberName: (id: string) => string;
  members: readonly MemberName[];
  mentionable: readonly MemberName[];
  now: number;
}) {
  const { t } = useLingui();
  const [replying, setReplying] = useState(false);
  const replyButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const { root, replies, resolved, resolution } = thread;
  // Moved out of the room with its task: its first comment can no longer change.
  const earlier = comments.isEarlier(root.id);
  const someone = t`A member`;
  const author = nameOf(memberName, root.author, someone);
  const by = resolution ? nameOf(memberName, resolution.by, someone) : '';
  const stopReplying = () => {
    refocus.current = true;
    setReplying(false);
  };
  // Back to "Reply" once the reply box has closed (it is rendered again only then), for the keyboard.
  useEffect(() => {
    if (!replying && refocus.current) {
      refocus.current = false;
      replyButton.current?.focus();
    }
  }, [replying]);
  return (
    <article
      aria-label={t`Thread by ${author}`}
      className={cn(
        'flex flex-col gap-2 rounded-lg bg-white p-3 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800',
        resolved && 'bg-slate-50 dark:bg-slate-900/60',
      )}
    >
      <CommentBody
        comment={root}
        comments={comments}
        memberId={memberId}
        memberName={memberName}
        members={members}
        now={now}
      />
      {replies.length > 0 && (
        <ul
          aria-label={t`Replies`}
          className="flex flex-col gap-2 border-s-2 border-slate-200 ps-3 dark:border-slate-700"
        >
          {replies.map((reply) => (
            <li key={reply.id}>
              <CommentBody
                comment={reply}
                comments={comments}
                memberId={memberId}
                memberName={memberName}
                members={members}
                now={now}
              />
            </li>
          ))}
        </ul>
      )}
      {resolution && (
        <p className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
          {resolved && (
            <CheckCircle2 className="size-3.5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          )}
          <span dir="auto" translate="no">
            {resolved ? t`Resolved by ${by}` : t`Reopened by ${by}`}
          </span>
          <time dateTime={new Date(resolution.at).toISOString()} title={formatDateTime(resolution.at)}>
            {relativeTime(resolution.at, now)}
          </time>
        </p>
      )}
      {replying ? (
        <Composer
          label={t({ message: 'Reply', context: 'noun: the box a reply is typed in' })}
          submitLabel={t`Add reply`}
          mentionable={mentionable}
          autoFocus
          onSubmit={(body) => {
            comments.reply(root.id, body, members);
            stopReplying();
          }}
          onCancel={stopReplying}
        />
      ) : (
        <div className="flex flex-wrap gap-1">
          <Button ref={replyButton} variant="ghost" size="sm" onClick={() => setReplying(true)}>
            <Trans context="verb: opens the box to reply to a thread">Reply</Trans>
          </Button>
          {earlier ? (
            <p className="self-center text-xs text-slate-600 dark:text-slate-400">
              <Trans>Earlier thread: it can be answered, no longer resolved.</Trans>
            </p>
          ) : resolved ? (
            <Button variant="ghost" size="sm" onClick={() => comments.reopen(root.id)}>
              <RotateCcw className="size-3.5" aria-hidden="true" />
              <Trans>Reopen</Trans>
            </Button>
          ) : (
            <Button variant="ghost" size="sm" onClick={() => comments.resolve(root.id)}>
              <CheckCircle2 className="size-3.5" aria-hidden="true" />
              <Trans>Resolve</Trans>
            </Button>
          )}
        </div>
      )}
    </article>
  );
}

function CommentBody({
  comment,
  comments,
  memberId,
  memberName,
  members,
  now,
}: {
  comment: TeamComment;
  comments: TeamComments;
  memberId: string;
  memberName: (id: string) => string;
  members: readonly MemberName[];
  now: number;
}) {
  const { t } = useLingui();
  // Highlight the mentions the comment made, by the names those members go by now.
  const mentioned = useMemo(
    () =>
      comment.mentions.map((id) => ({
        id,
        name: members.find((m) => m.id === id)?.name ?? memberName(id),
      })),
    [comment.mentions, members, memberName],
  );
  const parts = useMemo(() => splitMentions(comment.body, mentioned), [comment.body, mentioned]);
  return (
    <div className="flex flex-col gap-0.5">
      <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span
          dir="auto"
          translate="no"
          className="min-w-0 font-semibold wrap-anywhere text-slate-900 dark:text-slate-100"
        >
          {nameOf(memberName, comment.author, t`A member`)}
        </span>
        <time
          dateTime={new Date(comment.createdAt).toISOString()}
          title={formatDateTime(comment.createdAt)}
          className="text-slate-600 dark:text-slate-400"
        >
          {relativeTime(comment.createdAt, now)}
        </time>
        {comment.author === memberId && !comment.deleted && !comments.isEarlier(comment.id) && (
          <button
            type="button"
            onClick={() => comments.delete(comment.id)}
            aria-label={t`Delete comment`}
            title={t`Delete comment`}
            className="ms-auto rounded-md p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            <Trash2 className="size-3.5" aria-hidden="true" />
          </button>
        )}
      </p>
      {comment.deleted ? (
        <p className="text-sm text-slate-600 italic dark:text-slate-400">
          <Trans>Comment deleted</Trans>
        </p>
      ) : (
        <p
          dir="auto"
          translate="no"
          className="text-sm whitespace-pre-wrap wrap-anywhere text-slate-800 dark:text-slate-200"
        >
          {parts.map((part, i) =>
            part.mention ? (
              <mark
                key={i}
                className="rounded bg-indigo-50 px-0.5 font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
              >
                {displayText(part.text)}
              </mark>
            ) : (
              displayText(part.text)
            ),
          )}
        </p>
      )}
    </div>
  );
}

/** The "@name" being typed just before the caret, if any: what to suggest, and where it starts. */
function mentionQuery(text: string, caret: number): { query: string; start: number } | null {
  const match = /(^|\s)@([^@\n]{0,40})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { query: match[2]!, start: caret - match[2]!.length - 1 };
}

function Composer({
  label,
  submitLabel,
  mentionable,
  onSubmit,
  onCancel,
  autoFocus,
}: {
  label: string;
  submitLabel: string;
  mentionable: readonly MemberName[];
  onSubmit: (body: string) => void;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const { t } = useLingui();
  const id = useId();
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const typing = mentionQuery(text, caret);
  const suggestions = useMemo(() => {
    if (!typing) return [];
    const q = typing.query.toLocaleLowerCase();
    return mentionable.filter((m) => m.name.trim() && m.name.toLocaleLowerCase().startsWith(q)).slice(0, 6);
  }, [typing, mentionable]);

  const submit = () => {
    try {
      onSubmit(text);
      setText('');
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : t`The comment could not be added.`);
    }
  };
  const insert = (member: MemberName) => {
    if (!typing) return;
    const mention = `@${member.name.trim()} `;
    const next = text.slice(0, typing.start) + mention + text.slice(caret);
    const at = typing.start + mention.length;
    setText(next);
    setCaret(at);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(at, at);
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  };
  const left = MAX_COMMENT_LENGTH - text.trim().length;
  const leftCount = formatCount(left);

  return (
    <form
      className="flex flex-col gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {label}
        </label>
        {left < 200 && (
          <span
            className={cn(
              'text-xs tabular-nums',
              left < 0 ? 'text-rose-700 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400',
            )}
          >
            <Trans>{leftCount} left</Trans>
          </span>
        )}
      </div>
      <textarea
        ref={area}
        id={id}
        value={text}
        rows={2}
        // The reply box opens on a click of "Reply": the focus follows it there.
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-err` : ''}`}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          if (error) setError(null);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        className={cn(inputClass, 'resize-y')}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        <Trans>Type @ and a name to mention a member; Ctrl+Enter sends.</Trans>
      </p>
      {suggestions.length > 0 && (
        <div role="group" aria-label={t`Mention a member`} className="flex flex-wrap gap-1">
          {suggestions.map((m) => (
            <Button key={m.id} size="sm" variant="secondary" onClick={() => insert(m)}>
              <span dir="auto" translate="no" className="max-w-48 truncate">
                @{displayText(m.name)}
              </span>
            </Button>
          ))}
        </div>
      )}
      {error && (
        <p id={`${id}-err`} role="alert" className="text-xs font-medium text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" variant="primary">
          {submitLabel}
        </Button>
        {onCancel && (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        )}
      </div>
    </form>
  );
}
