import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink, X } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { formatCount } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import {
  commentNotices,
  loadSeen,
  markSeen,
  saveSeen,
  seenStorageKey,
  type CommentNotice,
  type SeenMark,
} from '../../model/team/comment-notices';
import type { TeamComment } from '../../model/team/comment-types';
import type { TeamComments } from '../../model/team/team-comments';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// "A member is told of new comments on their results" (docs/team-space.md "Judgements and comments"): the
// comments by others on this member's outputs, and mentions of them, that they have not seen, as the studio's
// one kind of notice (an Alert, as the Gallery's), each with a button to open the output; and a browser
// notification, as finished tasks have (features/tasks/finish-notices.tsx), when the member allowed
// them and looks elsewhere. What was seen is kept on this device per member (model/team/comment-notices.ts).

const NONE: readonly TeamComment[] = [];
const nothing = () => NONE;

interface CommentNoticesOptions {
  /** The room's comments, or null while the team space is off. */
  comments: TeamComments | null;
  memberId: string;
  /** Whether an output is this member's. Keep it stable (useCallback): it is a dependency. */
  isMine: (outputKey: string) => boolean;
  /** Where the seen mark is kept (localStorage unless a test gives another). */
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  now?: () => number;
}

export interface CommentNoticesState {
  notices: readonly CommentNotice[];
  /** Marks these notices' comments as seen: they are not told of again. */
  markSeen: (notices: readonly CommentNotice[]) => void;
}

/** The notices of new comments for this member, following the room's comments by subscription. */
function useCommentNotices({
  comments,
  memberId,
  isMine,
  storage = globalThis.localStorage,
  now = Date.now,
}: CommentNoticesOptions): CommentNoticesState {
  const all = useSyncExternalStore(comments?.subscribe ?? NO_SUBSCRIBE, comments?.snapshot ?? nothing);
  const [mark, setMark] = useState(() => ({ memberId, seen: loadSeen(storage, memberId, now()) }));
  // Another member on this device (a new connection): their own mark.
  if (mark.memberId !== memberId) setMark({ memberId, seen: loadSeen(storage, memberId, now()) });

  // Another tab of this member saw some: follow its mark.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === seenStorageKey(memberId)) setMark({ memberId, seen: loadSeen(storage, memberId, now()) });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [memberId, storage, now]);

  const notices = useMemo(
    () => (comments ? commentNotices(all, { memberId, isMine, seen: mark.seen }) : []),
    [comments, all, memberId, isMine, mark.seen],
  );
  const markAsSeen = useCallback(
    (list: readonly CommentNotice[]) => {
      if (list.length === 0) return;
      setMark((m) => {
        const seen: SeenMark = markSeen(
          m.seen,
          list.map((n) => n.comment),
          now(),
        );
        saveSeen(storage, m.memberId, seen);
        return { memberId: m.memberId, seen };
      });
    },
    [storage, now],
  );
  return { notices, markSeen: markAsSeen };
}

const excerpt = (body: string) => {
  const text = displayText(body).replace(/\s+/g, ' ').trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

interface CommentNoticeListProps {
  notices: readonly CommentNotice[];
  memberName: (memberId: string) => string;
  /** Opens the output a comment is on (the Viewer, with its comments). */
  onOpen: (outputKey: string) => void;
  onSeen: (notices: readonly CommentNotice[]) => void;
}

/** The notice itself: how many, the newest few, "Open output" on each, and "Dismiss" for all. */
function CommentNoticeList({ notices, memberName, onOpen, onSeen }: CommentNoticeListProps) {
  const { t } = useLingui();
  useBrowserNotifications(notices, memberName);
  if (notices.length === 0) return null;
  const shown = notices.slice(-3).reverse();
  const mentions = notices.filter((n) => n.reasons.includes('mention')).length;
  const mentionCount = formatCount(mentions);
  const title =
    notices.length === 1
      ? notices[0]!.reasons.includes('your-output')
        ? t`New comment on your result`
        : t`You were mentioned in a comment`
      : mentions
        ? plural(notices.length, {
            one: `# new comment (${mentionCount} mentioning you)`,
            other: `# new comments (${mentionCount} mentioning you)`,
          })
        : plural(notices.length, { one: '# new comment', other: '# new comments' });
  const more = formatCount(notices.length - shown.length);
  return (
    <div className="relative" data-testid="comment-notices">
      <Alert title={title} className="pe-12">
        <ul className="mt-1 flex flex-col gap-1.5">
          {shown.map((n) => {
            // The name and the comment are other members' text: elements given to the message as values,
            // never strings inside it (Lingui would read a "<0>…</0>" in a string value as its markup).
            const author = (
              <span className="font-semibold">
                {displayText(memberName(n.comment.author)) || t`A member`}
              </span>
            );
            const body = <>{excerpt(n.comment.body)}</>;
            return (
              <li key={n.comment.id} className="flex flex-wrap items-center gap-2">
                <span className="min-w-0 flex-1 wrap-anywhere" dir="auto" translate="no">
                  {n.reasons.includes('mention') && !n.reasons.includes('your-output') ? (
                    <Trans>
                      {author} mentioned you: {body}
                    </Trans>
                  ) : (
                    <Trans comment="a member's name, then their comment">
                      {author}: {body}
                    </Trans>
                  )}
                </span>
                {n.outputKey !== null && (
                  <Button
                    size="sm"
                    onClick={() => {
                      onSeen([n]);
                      onOpen(n.outputKey!);
                    }}
                  >
                    <ExternalLink className="size-3.5" aria-hidden="true" />
                    <Trans>Open output</Trans>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
        {notices.length > shown.length && (
          <p className="mt-1">
            <Trans>and {more} more.</Trans>
          </p>
        )}
      </Alert>
      <button
        type="button"
        onClick={() => onSeen(notices)}
        aria-label={t`Dismiss`}
        className="absolute top-1.5 end-2 rounded-md p-1.5 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/** A browser notification per new notice while the page is hidden, when the member allowed them. */
function useBrowserNotifications(notices: readonly CommentNotice[], memberName: (id: string) => string) {
  const { t } = useLingui();
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const n of notices) {
      if (told.current.has(n.comment.id)) continue;
      told.current.add(n.comment.id);
      if (
        document.visibilityState === 'hidden' &&
        'Notification' in window &&
        Notification.permission === 'granted'
      ) {
        const author = displayText(memberName(n.comment.author)) || t`a member`;
        new Notification(t`Comment from ${author}`, {
          body: excerpt(n.comment.body),
          tag: n.comment.id,
        });
      }
    }
  }, [notices, memberName, t]);
}

export interface TeamCommentNoticesProps extends Omit<CommentNoticesOptions, 'comments'> {
  comments: TeamComments | null;
  memberName: (memberId: string) => string;
  onOpen: (outputKey: string) => void;
}

/** The hook and the notice together: what the app renders once, near the header. */
export function TeamCommentNotices({ memberName, onOpen, ...options }: TeamCommentNoticesProps) {
  const { notices, markSeen: seen } = useCommentNotices(options);
  return <CommentNoticeList notices={notices} memberName={memberName} onOpen={onOpen} onSeen={seen} />;
}
