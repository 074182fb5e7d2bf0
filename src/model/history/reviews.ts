import { z } from 'zod/mini';
import type { HistorySection } from './history-store';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// Reviews of outputs ("Approve", "Needs changes", "Reject", a note optional; docs/using.md "Review"), kept
// per connection in IndexedDB (store `reviews`, key [connectionId, outputKey], outputKey
// `${taskId}#${index}`): one review per output, this member's. A plain store, as judgements.ts:
// subscribe/snapshot for useSyncExternalStore; every read (database or imported file) is parsed. In a team
// the review is also the member's entry in the room's `reviews` root (team/team-reviews.ts).

export const REVIEW_STATES = ['approved', 'changes', 'rejected'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** The longest note (the team-space contract's bound: a longer one would be refused there). */
export const MAX_REVIEW_NOTE = 2_000;

const ReviewStateSchema = z.enum(REVIEW_STATES);
const NoteSchema = z.string().check(z.maxLength(MAX_REVIEW_NOTE));

/** One output's review as kept and as exported (without the connection). */
const ReviewSchema = z.object({
  outputKey: z.string().check(z.regex(/^.+#\d+$/)),
  state: ReviewStateSchema,
  note: z._default(NoteSchema, ''),
  at: z.number().check(z.gte(0)),
});
export type Review = z.infer<typeof ReviewSchema>;

/** This member's reviews by output key. Immutable: a new Map after every change. */
export type Reviews = ReadonlyMap<string, Review>;

/** One member's review of one output, as a team shows it (team-reviews.ts reads them). */
export interface MemberReview {
  memberId: string;
  state: ReviewState;
  note: string;
  at: number;
}

/** Everyone's reviews by output key, newest first within an output. */
export type MemberReviews = ReadonlyMap<string, readonly MemberReview[]>;

const EMPTY: Reviews = new Map();

/**
 * The state each reviewed output is known by (the Gallery's badge and its "Review" filter): its latest
 * review, of anyone's in a team (`team`), else this member's own. `mine` is this device's, always counted
 * (in a room whose server keeps no reviews it is only here).
 */
export function reviewStatesOf(mine: Reviews, team?: MemberReviews): Map<string, ReviewState> {
  const latest = new Map<string, { state: ReviewState; at: number }>(mine);
  for (const [outputKey, list] of team ?? []) {
    const newest = list[0];
    const here = latest.get(outputKey);
    if (newest && (!here || newest.at > here.at)) latest.set(outputKey, newest);
  }
  return new Map([...latest].map(([outputKey, r]) => [outputKey, r.state]));
}

export class ReviewStore {
  private map: Reviews = EMPTY;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly records: LocalRecords<'reviews', Review>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    { now = Date.now, ...io }: { now?: () => number } & LocalIo,
  ): Promise<ReviewStore> {
    const records = new LocalRecords('reviews', connectionId, ReviewSchema, io);
    const store = new ReviewStore(connectionId, now, records);
    store.map = new Map((await records.load()).map((review) => [review.outputKey, review]));
    return store;
  }

  subscribe = this.listeners.subscribe;

  /** Immutable: a new Map after every change. */
  snapshot = (): Reviews => this.map;

  get(outputKey: string): Review | undefined {
    return this.map.get(outputKey);
  }

  /** Writes reviews (a null one is taken back) in one transaction; one notification. */
  private async write(changes: ReadonlyArray<{ outputKey: string; review: Review | null }>) {
    if (changes.length === 0) return;
    const next = new Map(this.map);
    for (const { outputKey, review } of changes) {
      if (review) next.set(outputKey, review);
      else next.delete(outputKey);
    }
    this.map = next;
    this.listeners.notify();
    // Shown at once, so written at once: a reload right after the click keeps it (commitNow).
    await this.records.write(
      changes.map(({ outputKey, review }) => (review ? { put: review } : { remove: outputKey })),
    );
  }

  /**
   * Reviews one output, or changes its review (the note too). `at` defaults to now: the team space gives
   * the time of a review made on another of this member's devices (team-reviews.ts).
   */
  async set(outputKey: string, review: { state: ReviewState; note?: string; at?: number }): Promise<void> {
    const parsed = ReviewSchema.parse({
      outputKey,
      state: review.state,
      note: review.note ?? '',
      at: review.at ?? this.now(),
    });
    await this.write([{ outputKey, review: parsed }]);
  }

  /** Gives several outputs the same state (the Gallery's selection), each keeping its note. */
  async setMany(outputKeys: readonly string[], state: ReviewState): Promise<void> {
    ReviewStateSchema.parse(state);
    const at = this.now();
    await this.write(
      outputKeys.map((outputKey) => ({
        outputKey,
        review: ReviewSchema.parse({ outputKey, state, note: this.map.get(outputKey)?.note ?? '', at }),
      })),
    );
  }

  /** Takes reviews back: the outputs are not reviewed any more. */
  clear(outputKeys: readonly string[]): Promise<void> {
    return this.write(
      outputKeys.filter((k) => this.map.has(k)).map((outputKey) => ({ outputKey, review: null })),
    );
  }

  /** For the history export: every review, without the connection. */
  list(): Review[] {
    return [...this.map.values()];
  }

  /**
   * Adds reviews from an imported file. Each is parsed; one whose output the history does not know
   * (`knows` says no) is skipped and counted, as is one that does not parse. A review already here that
   * is newer than the file's stays.
   */
  async importMany(
    raws: readonly unknown[],
    knows: (outputKey: string) => boolean,
  ): Promise<{ kept: number; unknown: number; invalid: number }> {
    const result = { kept: 0, unknown: 0, invalid: 0 };
    const changes: Array<{ outputKey: string; review: Review }> = [];
    for (const raw of raws) {
      const parsed = ReviewSchema.safeParse(raw);
      if (!parsed.success) result.invalid++;
      else if (!knows(parsed.data.outputKey)) result.unknown++;
      else {
        result.kept++;
        const here = this.map.get(parsed.data.outputKey);
        if (!here || here.at < parsed.data.at)
          changes.push({ outputKey: parsed.data.outputKey, review: parsed.data });
      }
    }
    await this.write(changes);
    return result;
  }

  /**
   * Its part of the history file: the reviews of the outputs the history has (the field is left out when
   * there are none); on import, those of outputs the history has once the tasks are in.
   */
  historySection(): HistorySection {
    return {
      export: (history) => {
        const kept = this.list().filter((r) => history.hasOutput(r.outputKey));
        return kept.length ? kept : undefined;
      },
      import: async (data, history) => {
        const raws = Array.isArray(data) ? data : [];
        const r = await this.importMany(raws, (key) => history.hasOutput(key));
        return { kept: r.kept, skipped: r.unknown + r.invalid };
      },
    };
  }
}
