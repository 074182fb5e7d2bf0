import { t as tNow } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, PencilLine, X } from 'lucide-react';
import {
  createContext,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { cn } from '../../lib/cn';
import { formatDateTime, formatRelative } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import { useNow } from '../../lib/use-now';
import {
  MAX_REVIEW_NOTE,
  REVIEW_STATES,
  type MemberReviews,
  type Reviews,
  type ReviewState,
  type ReviewStore,
} from '../../model/history/reviews';
import { Button } from '../button';
import { inputClass } from '../field';
import { useOptionalStore } from '../../lib/use-optional-store';

// "Review" on any output (docs/using.md "Review"): "Approve", "Needs changes" or "Reject", a note optional,
// and below them who reviewed it, how and when. The member's own review is the local ReviewStore's (in a
// team the session mirrors it into the room); the others' come from the team's reviews. Notes and names
// are other people's text: rendered as React text, never as markup.

/** What the control needs of the local ReviewStore (model/history/reviews.ts). */
export type LocalReviewStore = Pick<ReviewStore, 'subscribe' | 'snapshot' | 'set' | 'clear'>;

/** The team's part, while the team space is on. */
export interface ReviewTeam {
  /** Everyone's reviews (model/team/team-reviews.ts TeamReviews, or any store of its snapshot). */
  reviews: { subscribe: (listener: () => void) => () => void; snapshot: () => MemberReviews };
  /** This member: their own review is read from `LocalReviewStore`, not from the team's. */
  memberId: string;
  /** A member's display name (untrusted text). */
  memberName: (memberId: string) => string;
}

const ICONS: Record<ReviewState, ReactNode> = {
  approved: <Check className="size-4" aria-hidden="true" />,
  changes: <PencilLine className="size-4" aria-hidden="true" />,
  rejected: <X className="size-4" aria-hidden="true" />,
};

/** The action's name on its button: "Approve", "Needs changes", "Reject". */
function actionName(state: ReviewState): string {
  switch (state) {
    case 'approved':
      return tNow({
        message: 'Approve',
        context: 'a review action, on its button',
        comment: 'review an output: approve it',
      });
    case 'changes':
      return tNow({
        message: 'Needs changes',
        context: 'a review action, on its button',
        comment: 'review an output: it needs changes',
      });
    case 'rejected':
      return tNow({
        message: 'Reject',
        context: 'a review action, on its button',
        comment: 'review an output: reject it',
      });
  }
}

/** A review's state as a badge says it: "Approved", "Needs changes", "Rejected". */
export function reviewStateWord(state: ReviewState): string {
  switch (state) {
    case 'approved':
      return tNow({ message: 'Approved', comment: 'the state of an output’s review' });
    case 'changes':
      return tNow({ message: 'Needs changes', comment: 'the state of an output’s review' });
    case 'rejected':
      return tNow({ message: 'Rejected', comment: 'the state of an output’s review' });
  }
}

/** "Approved by Ana": who reviewed how; the member's own (name null) says "You". */
function byline(state: ReviewState, name: string | null): string {
  if (name === null) {
    if (state === 'approved') return tNow({ message: 'Approved by You', comment: 'the member’s own review' });
    if (state === 'changes')
      return tNow({ message: 'Needs changes: by You', comment: 'the member’s own review' });
    return tNow({ message: 'Rejected by You', comment: 'the member’s own review' });
  }
  if (state === 'approved') return tNow`Approved by ${name}`;
  if (state === 'changes') return tNow`Needs changes: by ${name}`;
  return tNow`Rejected by ${name}`;
}

/** "just now", "5 minutes ago", "yesterday"; after a week the date and time. */
function whenText(at: number, now: number): string {
  // Another member's clock may run a little ahead: a review "from the future" was made just now.
  const seconds = Math.max(0, now - at) / 1_000;
  if (seconds < 60) return tNow`just now`;
  if (seconds >= 7 * 86_400) return formatDateTime(at);
  const unit = seconds >= 86_400 ? 'day' : seconds >= 3_600 ? 'hour' : 'minute';
  const size = { day: 86_400, hour: 3_600, minute: 60 }[unit];
  return formatRelative(-Math.round(seconds / size), unit);
}

/**
 * The three review actions as toggle buttons (aria-pressed on the current one): the Viewer's control and
 * the Gallery's selection toolbar. Choosing the current one again is the caller's "take back".
 */
export function ReviewButtons({
  current,
  onChoose,
  size = 'sm',
}: {
  /** The state shown as pressed, or null. */
  current: ReviewState | null;
  onChoose: (state: ReviewState) => void;
  size?: 'sm' | 'md';
}) {
  const { t } = useLingui();
  return (
    <div role="group" aria-label={t`Review`} className="flex flex-wrap items-center gap-1.5">
      {REVIEW_STATES.map((state) => (
        <Button
          key={state}
          size={size}
          variant={current === state ? 'primary' : 'secondary'}
          aria-pressed={current === state}
          onClick={() => onChoose(state)}
        >
          {ICONS[state]}
          {actionName(state)}
        </Button>
      ))}
    </div>
  );
}

export interface ReviewControlProps {
  /** The output reviewed: `${taskId}#${index}` (model/history/output-key.ts). */
  outputKey: string;
  /** This member's reviews on this device (the connection's ReviewStore). */
  reviews: LocalReviewStore;
  /** With the team space on: everyone's reviews and their names; without it only the member's own show. */
  team?: ReviewTeam | null;
  /** The heading's level in the place it sits (the Viewer's side panel: 3). */
  headingLevel?: 2 | 3 | 4;
  /** The heading is for screen readers only (where a disclosure's summary already shows the word). */
  headingHidden?: boolean;
  className?: string;
}

/**
 * Review of one output: the three actions, a note ("Review note", saved with the review and when the field
 * is left), and the reviews made (who, how, when, the note). Render it keyed by `outputKey` where the output
 * shown changes, so a note being typed does not follow to the next output.
 */
export function ReviewControl({
  outputKey,
  reviews,
  team,
  headingLevel = 3,
  headingHidden = false,
  className,
}: ReviewControlProps) {
  const { t } = useLingui();
  const noteId = useId();
  const headingId = useId();
  const Heading = `h${headingLevel}` as const;
  const mineAll = useSyncExternalStore(reviews.subscribe, reviews.snapshot);
  const teamAll = useOptionalStore(team?.reviews, undefined);
  const now = useNow(true);
  const mine = mineAll.get(outputKey);
  // A note typed and not saved yet; null: the field shows the saved note.
  const [draft, setDraft] = useState<string | null>(null);
  const note = draft ?? mine?.note ?? '';

  const choose = (state: ReviewState) => {
    if (mine?.state === state) {
      // Taken back: the note stays in the field, for a review made again.
      setDraft(note);
      void reviews.clear([outputKey]);
      return;
    }
    setDraft(null);
    void reviews.set(outputKey, { state, note });
  };
  const saveNote = () => {
    if (draft === null || !mine) return;
    setDraft(null);
    if (draft !== mine.note) void reviews.set(outputKey, { state: mine.state, note: draft });
  };
  // A note being typed when the control goes (Escape closes the Viewer from the field: no blur follows)
  // is saved too.
  const saveOnLeave = useRef(saveNote);
  useEffect(() => {
    saveOnLeave.current = saveNote;
  });
  useEffect(() => () => saveOnLeave.current(), []);

  const list = mergedReviews(outputKey, mineAll, teamAll, team);

  return (
    <section aria-labelledby={headingId} className={cn('flex flex-col gap-2', className)}>
      <Heading id={headingId} className={headingHidden ? 'sr-only' : 'text-sm font-semibold'}>
        <Trans>Review</Trans>
      </Heading>
      <ReviewButtons current={mine?.state ?? null} onChoose={choose} />
      <label htmlFor={noteId} className="text-xs text-slate-600 dark:text-slate-400">
        <Trans>Review note</Trans>
      </label>
      <textarea
        id={noteId}
        value={note}
        maxLength={MAX_REVIEW_NOTE}
        rows={2}
        dir="auto"
        placeholder={t`Optional: what to change, or why`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={saveNote}
        className={cn(inputClass, 'resize-y')}
      />
      {list.length > 0 && (
        <ul aria-label={t`Reviews`} className="flex flex-col gap-1.5">
          {list.map((r) => (
            <li key={r.memberId ?? ''} className="text-sm" data-testid="review-item">
              <p className="flex flex-wrap items-baseline gap-x-2">
                <span dir="auto" translate="no" className="font-medium wrap-anywhere">
                  {byline(r.state, r.memberId === null ? null : displayText(nameOr(team, r.memberId)))}
                </span>
                <time
                  dateTime={new Date(r.at).toISOString()}
                  title={formatDateTime(r.at)}
                  className="text-xs text-slate-600 dark:text-slate-400"
                >
                  {whenText(r.at, now)}
                </time>
              </p>
              {r.note && (
                <p
                  dir="auto"
                  translate="no"
                  className="text-sm whitespace-pre-wrap wrap-anywhere text-slate-700 dark:text-slate-300"
                >
                  {displayText(r.note)}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Review where room is short (a board's cell): a disclosure named "Review" with the latest review's state,
 * opening onto the whole control.
 */
export function ReviewDisclosure(props: ReviewControlProps) {
  const mineAll = useSyncExternalStore(props.reviews.subscribe, props.reviews.snapshot);
  const teamAll = useOptionalStore(props.team?.reviews, undefined);
  const latest = mergedReviews(props.outputKey, mineAll, teamAll, props.team)[0];
  return (
    <details className={cn('text-xs', props.className)} data-testid="cell-review">
      <summary className="cursor-pointer text-slate-700 dark:text-slate-300">
        <Trans>Review</Trans>
        {latest && (
          <span className="ms-1.5 rounded bg-slate-100 px-1.5 py-0.5 font-medium dark:bg-slate-800">
            {reviewStateWord(latest.state)}
          </span>
        )}
      </summary>
      <ReviewControl {...props} headingLevel={props.headingLevel ?? 4} headingHidden className="mt-2" />
    </details>
  );
}

/** One review as words: "Approved by Ana", its note, when (for a page made of them: the exported report). */
export interface ReviewLine {
  byline: string;
  note: string;
  at: number;
}

/** An output's reviews as words, newest first: this member's own (from this device) and the team's. */
export function reviewLines(
  outputKey: string,
  reviews: Pick<LocalReviewStore, 'snapshot'>,
  team: ReviewTeam | null,
): ReviewLine[] {
  // Read by people outside the studio: this member by their name in a team ("You" would be the reader).
  const self = team ? displayText(team.memberName(team.memberId)) || null : null;
  return mergedReviews(outputKey, reviews.snapshot(), team?.reviews.snapshot(), team).map((r) => ({
    byline: byline(r.state, r.memberId === null ? self : displayText(nameOr(team, r.memberId))),
    note: r.note,
    at: r.at,
  }));
}

/**
 * An output's reviews, newest first: this member's own from this device (memberId null) and the other
 * members' from the team's (this member's copy there is the same review, so it is left out).
 */
function mergedReviews(
  outputKey: string,
  mineAll: Reviews,
  teamAll: MemberReviews | undefined,
  team: ReviewTeam | null | undefined,
): Array<{ memberId: string | null; state: ReviewState; note: string; at: number }> {
  const mine = mineAll.get(outputKey);
  return [
    ...(mine ? [{ memberId: null, state: mine.state, note: mine.note, at: mine.at }] : []),
    ...(teamAll?.get(outputKey) ?? []).filter((r) => r.memberId !== team?.memberId),
  ].sort((a, b) => b.at - a.at);
}

/**
 * Where a feature that shows outputs away from their review control (the Model report's export) reads
 * their reviews: the app provides it; absent, outputs have none.
 */
export const ReviewLinesContext = createContext<((outputKey: string) => ReviewLine[]) | null>(null);

function nameOr(team: ReviewTeam | null | undefined, memberId: string): string {
  return team?.memberName(memberId) || tNow`A member`;
}
