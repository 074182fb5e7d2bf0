import { z } from 'zod/mini';
import {
  MAX_REVIEW_NOTE,
  REVIEW_STATES,
  type MemberReview,
  type MemberReviews,
  type Reviews,
  type ReviewState,
} from '../history/reviews';
import { MemberRecords, mirrorMine, type RecordsSpec } from './member-records';
import { ROOTS, type TeamContext } from './team-doc';
import { OPEN_GATE, type ShareGate } from './team-share';

// Reviews in the team space (docs/team-space.md "Reviews"): each member's review of an output ("Approve",
// "Needs changes", "Reject", a note) is theirs, under `${memberId}|${outputKey}` in the `reviews` root (the
// key's shape is the judgements'), a plain value: the last write wins. The server refuses a review written
// or removed under another member's key; this module only ever writes under this member's. The root is
// schema version 4's: a room's server of an older version would refuse it as unknown, so there the review
// stays on this device. The Gallery and the Viewer keep using the local ReviewStore; bridge mirrors this
// member's reviews into the document and back (another of their devices changes them too). Reading,
// writing and mirroring are member-records.ts's; this module says what a review is.

/** What one member thinks of one output, as the document holds it. */
const TeamReviewSchema = z.object({
  state: z.enum(REVIEW_STATES),
  note: z._default(z.string().check(z.maxLength(MAX_REVIEW_NOTE)), ''),
  at: z.number().check(z.gte(0)),
});

const REVIEWS: RecordsSpec<typeof TeamReviewSchema, MemberReview> = {
  root: ROOTS.reviews,
  // The `reviews` root came with schema version 4.
  keptFrom: 4,
  keyed: 'member',
  schema: TeamReviewSchema,
  record: (review, { memberId }) => ({ memberId, ...review }),
};

type ReviewValue = Omit<MemberReview, 'memberId'>;

const same = (a: ReviewValue | undefined, b: ReviewValue | undefined): boolean =>
  a === b || (!!a && !!b && a.state === b.state && a.note === b.note && a.at === b.at);

/** A change of this member's review of one output: the review, or null to take it back. */
export interface ReviewChange {
  outputKey: string;
  review: { state: ReviewState; note: string; at?: number } | null;
}

/**
 * Everyone's reviews in the room, and this member's writes. Constructed from the TeamContext (the
 * TeamSpace handle): it observes the `reviews` root from then on; `destroy` stops it.
 */
export class TeamReviews {
  private readonly records: MemberRecords<typeof TeamReviewSchema, MemberReview>;
  readonly subscribe: (listener: () => void) => () => void;

  constructor(
    private readonly ctx: TeamContext,
    gate: ShareGate = OPEN_GATE,
  ) {
    this.records = new MemberRecords(ctx, gate, REVIEWS);
    this.subscribe = this.records.subscribe;
  }

  destroy(): void {
    this.records.destroy();
  }

  /** Everyone's reviews, by output key, newest first. Immutable: a new Map after each change. */
  snapshot = (): MemberReviews => this.records.bySubject();

  /** One member's review of one output, as the document holds it (parsed). */
  get(memberId: string, outputKey: string): MemberReview | undefined {
    return this.records.get(outputKey, memberId);
  }

  /** This member's reviews, by output key. */
  mine(): Map<string, MemberReview> {
    return this.records.mine();
  }

  /** Whether reviews are shared in this room (its server keeps them); else they stay on the device. */
  shared(): boolean {
    return this.records.shared();
  }

  /**
   * Writes this member's reviews (a null one is taken back), as one transaction, always under this
   * member's own key: no call here writes another's. False, and nothing written, in a room whose server
   * does not keep reviews.
   */
  setMine(changes: readonly ReviewChange[]): boolean {
    return this.records.write(
      changes.map(({ outputKey, review }) => ({
        subject: outputKey,
        value: review && { ...review, at: review.at ?? this.ctx.now() },
      })),
    );
  }

  /**
   * Mirrors the local ReviewStore of this member into the document and back (member-records.ts
   * mirrorMine): a review made in the Viewer or the Gallery goes to the team, one from another of this
   * member's devices comes back with its time. Returns the function that stops it.
   */
  bridge(local: LocalReviews, options: { shareExisting?: boolean } = {}): () => void {
    return mirrorMine(
      this.records,
      this.ctx,
      {
        local: () => local.snapshot(),
        subscribe: (listener) => local.subscribe(listener),
        same,
        toLocal: (outputKey, there) =>
          void (there
            ? local.set(outputKey, { state: there.state, note: there.note, at: there.at })
            : local.clear([outputKey])),
        change: (outputKey, here): ReviewChange => ({ outputKey, review: here ?? null }),
        write: (changes) => this.setMine(changes),
      },
      options,
    );
  }
}

/** What the bridge needs of the local ReviewStore (model/history/reviews.ts). */
export interface LocalReviews {
  subscribe(listener: () => void): () => void;
  snapshot(): Reviews;
  set(outputKey: string, review: { state: ReviewState; note: string; at: number }): Promise<void>;
  clear(outputKeys: readonly string[]): Promise<void>;
}
