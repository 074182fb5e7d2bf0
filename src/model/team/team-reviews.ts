import { acceptedRecord, schemaVersionOf } from '../../../contract/team-doc';
import { z } from 'zod/mini';
import type * as Y from 'yjs';
import {
  MAX_REVIEW_NOTE,
  REVIEW_STATES,
  type MemberReview,
  type MemberReviews,
  type Review,
  type Reviews,
  type ReviewState,
} from '../history/reviews';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { parseJudgementKey } from './team-judgements';
import { OPEN_GATE, sizeOf, type ShareGate } from './team-share';
import { Listeners } from '../../lib/store';

// Reviews in the team space (docs/team-space.md "Reviews"): each member's review of an output ("Approve",
// "Needs changes", "Reject", a note) is theirs, under `${memberId}|${outputKey}` in the `reviews` root (the
// key's shape is the judgements'), a plain value: the last write wins. The server refuses a review written
// or removed under another member's key; this module only ever writes under this member's. The root is
// schema version 4's: a room's server of an older version would refuse it as unknown, so there the review
// stays on this device. The Gallery and the Viewer keep using the local ReviewStore; bridgeReviews mirrors
// this member's reviews into the document and back (another of their devices changes them too).

/** What one member thinks of one output, as the document holds it. */
const TeamReviewSchema = z.object({
  state: z.enum(REVIEW_STATES),
  note: z._default(z.string().check(z.maxLength(MAX_REVIEW_NOTE)), ''),
  at: z.number().check(z.gte(0)),
});

const OUTPUT_KEY = /^.+#\d+$/;

const reviewKey = (memberId: string, outputKey: string): string => `${memberId}|${outputKey}`;

/** Whether the room's server keeps reviews (the `reviews` root came with schema version 4). */
const keepsReviews = (doc: Y.Doc): boolean => schemaVersionOf(doc) >= 4;

type ReviewValue = Omit<MemberReview, 'memberId'>;

const same = (a: ReviewValue | undefined, b: ReviewValue | undefined): boolean =>
  a === b || (!!a && !!b && a.state === b.state && a.note === b.note && a.at === b.at);

/** One output's reviews, newest first (ties: by member, so every copy lists them alike). */
const listOf = (byMember: ReadonlyMap<string, MemberReview>): MemberReview[] =>
  [...byMember.values()].sort((a, b) => b.at - a.at || (a.memberId < b.memberId ? -1 : 1));

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
  private readonly map: Y.Map<unknown>;
  /** outputKey -> memberId -> review: what the snapshot is made of, kept in step per change. */
  private readonly byOutput = new Map<string, Map<string, MemberReview>>();
  private view: MemberReviews = new Map();
  private readonly listeners = new Listeners();

  constructor(
    private readonly ctx: TeamContext,
    private readonly gate: ShareGate = OPEN_GATE,
  ) {
    this.map = rootMap(ctx.doc, ROOTS.reviews);
    for (const key of this.map.keys()) this.read(key);
    const next = new Map<string, MemberReview[]>();
    for (const [outputKey, byMember] of this.byOutput) next.set(outputKey, listOf(byMember));
    this.view = next;
    this.map.observe(this.onChange);
  }

  destroy(): void {
    this.map.unobserve(this.onChange);
    this.listeners.clear();
  }

  subscribe = this.listeners.subscribe;

  /** Everyone's reviews, by output key, newest first. Immutable: a new Map after each change. */
  snapshot = (): MemberReviews => this.view;

  /** One member's review of one output, as the document holds it (parsed). */
  get(memberId: string, outputKey: string): MemberReview | undefined {
    return this.byOutput.get(outputKey)?.get(memberId);
  }

  /** This member's reviews, by output key. */
  mine(): Map<string, MemberReview> {
    const out = new Map<string, MemberReview>();
    for (const [outputKey, byMember] of this.byOutput) {
      const r = byMember.get(this.ctx.memberId);
      if (r) out.set(outputKey, r);
    }
    return out;
  }

  /** Whether reviews are shared in this room (its server keeps them); else they stay on the device. */
  shared(): boolean {
    return keepsReviews(this.ctx.doc);
  }

  /**
   * Writes this member's reviews (a null one is taken back), as one transaction, always under this
   * member's own key: no call here writes another's. False, and nothing written, in a room whose server
   * does not keep reviews.
   */
  setMine(changes: readonly ReviewChange[]): boolean {
    if (!this.shared()) return false;
    // Past this member's share of the room the server refuses any growing change: new reviews stay on
    // this device (taking one back still goes).
    let bytes = 0;
    const kept: Array<{ key: string; value: ReviewValue | null }> = [];
    for (const { outputKey, review } of changes) {
      if (!OUTPUT_KEY.test(outputKey)) continue;
      const key = reviewKey(this.ctx.memberId, outputKey);
      if (!review) {
        if (this.map.has(key)) kept.push({ key, value: null });
        continue;
      }
      const parsed = TeamReviewSchema.safeParse({ ...review, at: review.at ?? this.ctx.now() });
      if (!parsed.success) continue;
      bytes += sizeOf(key, parsed.data);
      if (this.gate.allows(bytes)) kept.push({ key, value: parsed.data });
    }
    if (kept.length === 0) return true;
    this.ctx.transact(() => {
      for (const { key, value } of kept) {
        if (value) this.map.set(key, value);
        else this.map.delete(key);
      }
    });
    return true;
  }

  /** Mirrors the local ReviewStore of this member into the document and back (bridgeReviews). */
  bridge(local: LocalReviews, options: { shareExisting?: boolean } = {}): () => void {
    return bridgeReviews(this, this.ctx, local, options);
  }

  /** Reads one key into byOutput; returns the output key it touched, if any. */
  private read(key: string): string | null {
    const parsedKey = parseJudgementKey(key);
    if (!parsedKey) return null;
    const { memberId, outputKey } = parsedKey;
    const raw = this.map.get(key);
    const parsed =
      raw === undefined || !acceptedRecord('reviews', key, raw) ? null : TeamReviewSchema.safeParse(raw);
    let byMember = this.byOutput.get(outputKey);
    if (parsed?.success) {
      if (!byMember) this.byOutput.set(outputKey, (byMember = new Map()));
      byMember.set(memberId, { memberId, ...parsed.data });
    } else if (byMember) {
      // Taken back, or a value that does not parse (another studio's or a hostile client's): not shown.
      byMember.delete(memberId);
      if (byMember.size === 0) this.byOutput.delete(outputKey);
    }
    return outputKey;
  }

  private onChange = (event: Y.YMapEvent<unknown>) => {
    const touched = new Set<string>();
    for (const key of event.keysChanged) {
      const outputKey = this.read(key);
      if (outputKey) touched.add(outputKey);
    }
    if (touched.size === 0) return;
    const next = new Map(this.view);
    for (const outputKey of touched) {
      const byMember = this.byOutput.get(outputKey);
      if (byMember) next.set(outputKey, listOf(byMember));
      else next.delete(outputKey);
    }
    this.view = next;
    this.listeners.notify();
  };
}

/** What the bridge needs of the local ReviewStore (model/history/reviews.ts). */
export interface LocalReviews {
  subscribe(listener: () => void): () => void;
  snapshot(): Reviews;
  set(outputKey: string, review: { state: ReviewState; note: string; at: number }): Promise<void>;
  clear(outputKeys: readonly string[]): Promise<void>;
}

/**
 * Mirrors the local ReviewStore of this member into the document and back: a review made in the Viewer or
 * the Gallery is written under this member's key; one that arrives from another of this member's devices
 * (the same member id) is written to the local store with its time. Where both hold a review when the
 * bridge starts, the newer one (`at`) wins; what only this device holds goes to the team when
 * `shareExisting` says so (docs/team-space.md: what is already on a device is shared only when the member
 * says so). In a room that keeps no reviews nothing is written there. Returns the function that stops it.
 */
function bridgeReviews(
  team: TeamReviews,
  ctx: TeamContext,
  local: LocalReviews,
  options: { shareExisting?: boolean },
): () => void {
  const docMap = rootMap(ctx.doc, ROOTS.reviews);
  const inDoc = (outputKey: string) => team.get(ctx.memberId, outputKey);
  const toLocal = (outputKey: string, there: ReviewValue | undefined) =>
    void (there
      ? local.set(outputKey, { state: there.state, note: there.note, at: there.at })
      : local.clear([outputKey]));

  const since = ctx.now();
  const start = local.snapshot();
  const mine = team.mine();
  const toDoc: ReviewChange[] = [];
  for (const [outputKey, there] of mine) {
    const here = start.get(outputKey);
    if (same(here, there)) continue;
    // A review newer here (a change the server never got) goes there, not the older one back.
    if (here && here.at > there.at) toDoc.push({ outputKey, review: here });
    else toLocal(outputKey, there);
  }
  if (options.shareExisting) {
    for (const [outputKey, here] of start) {
      if (!mine.has(outputKey)) toDoc.push({ outputKey, review: here });
    }
  }
  team.setMine(toDoc);

  let previous = local.snapshot();
  const offLocal = local.subscribe(() => {
    const next = local.snapshot();
    if (next === previous) return;
    const changes: ReviewChange[] = [];
    for (const [outputKey, review] of next) {
      if (previous.get(outputKey) !== review && !same(inDoc(outputKey), review)) {
        changes.push({ outputKey, review });
      }
    }
    for (const outputKey of previous.keys()) {
      if (!next.has(outputKey) && inDoc(outputKey)) changes.push({ outputKey, review: null });
    }
    previous = next;
    team.setMine(changes);
  });

  // Back: this member's keys changed by anyone but this handle (another device of the same member, synced
  // in). The store has read the change already (it observed first).
  const onDoc = (event: Y.YMapEvent<unknown>) => {
    if (event.transaction.origin === ctx.origin) return;
    for (const key of event.keysChanged) {
      const parsed = parseJudgementKey(key);
      if (!parsed || parsed.memberId !== ctx.memberId) continue;
      const there = inDoc(parsed.outputKey);
      const here: Review | undefined = local.snapshot().get(parsed.outputKey);
      if (!same(there, here)) toLocal(parsed.outputKey, there);
    }
  };
  docMap.observe(onDoc);

  // The room's version may arrive after the bridge started (this device's copy is read first, the server's
  // after): once the room keeps reviews, what this member reviewed meanwhile (and, when shared, before)
  // goes there too.
  const meta = rootMap(ctx.doc, ROOTS.meta);
  let shared = team.shared();
  const onMeta = () => {
    if (shared || !(shared = team.shared())) return;
    const changes: ReviewChange[] = [];
    for (const [outputKey, here] of local.snapshot()) {
      const there = inDoc(outputKey);
      if (same(there, here) || (there && there.at >= here.at)) continue;
      if (options.shareExisting || here.at >= since) changes.push({ outputKey, review: here });
    }
    team.setMine(changes);
  };
  meta.observe(onMeta);
  return () => {
    offLocal();
    docMap.unobserve(onDoc);
    meta.unobserve(onMeta);
  };
}
