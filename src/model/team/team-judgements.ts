import { acceptedRecord } from '../../../contract/team-doc';
import { EarlierSaid } from './team-attached';
import { z } from 'zod/mini';
import type * as Y from 'yjs';
import type { Judgement, Judgements } from '../history/judgements';
import { movesSaid, ROOTS, rootMap, type TeamContext } from './team-doc';
import { OPEN_GATE, sizeOf, type ShareGate } from './team-share';
import { Listeners } from '../../lib/store';

// Stars and ratings in the team space (docs/team-space.md "Judgements and comments"): each member's own
// judgement of an output stays theirs, under `${memberId}|${outputKey}` in the `judgements` root, written
// only by that member (a plain value: the last write wins); a blank judgement is deleted. The Gallery keeps
// using the local JudgementStore; bridgeJudgements mirrors it into the document, both ways (another of
// this member's devices, in a personal room, changes it too). TeamJudgements reads everyone's into
// "Team picks": per output, who starred it and the average rating.

/** What one member thinks of one output, as the document holds it. */
const TeamJudgementSchema = z.object({
  starred: z._default(z.boolean(), false),
  rating: z._default(z.nullable(z.int().check(z.gte(1), z.lte(5))), null),
  updatedAt: z._default(z.number(), 0),
});
export type TeamJudgement = z.infer<typeof TeamJudgementSchema>;

const OUTPUT_KEY = /^.+#\d+$/;
const MAX_KEY = 400;

const judgementKey = (memberId: string, outputKey: string): string => `${memberId}|${outputKey}`;

/**
 * The member and output of a key, or null for a key this studio did not write (a member id has no "|").
 * The `reviews` root's keys have the same shape (team-reviews.ts).
 */
export function parseJudgementKey(key: string): { memberId: string; outputKey: string } | null {
  if (key.length > MAX_KEY) return null;
  const bar = key.indexOf('|');
  if (bar <= 0) return null;
  const outputKey = key.slice(bar + 1);
  return OUTPUT_KEY.test(outputKey) ? { memberId: key.slice(0, bar), outputKey } : null;
}

/** One output as the team judged it. */
export interface TeamPick {
  outputKey: string;
  /** Members who starred it, sorted (their ids). */
  starredBy: readonly string[];
  /** Average of the members' ratings (1-5), or null when nobody rated it. */
  averageRating: number | null;
  /** How many members rated it. */
  ratings: number;
}

/** Every output some member starred or rated, by output key. Immutable: a new Map after each change. */
export type TeamPicks = ReadonlyMap<string, TeamPick>;

const isBlank = (j: { starred: boolean; rating: number | null }) => !j.starred && j.rating === null;
const same = (a: { starred: boolean; rating: number | null } | undefined, b: typeof a) =>
  (a ? a.starred : false) === (b ? b.starred : false) && (a?.rating ?? null) === (b?.rating ?? null);

function pickOf(outputKey: string, byMember: ReadonlyMap<string, TeamJudgement>): TeamPick | null {
  const starredBy: string[] = [];
  let sum = 0;
  let ratings = 0;
  for (const [memberId, j] of byMember) {
    if (j.starred) starredBy.push(memberId);
    if (j.rating !== null) {
      sum += j.rating;
      ratings++;
    }
  }
  if (starredBy.length === 0 && ratings === 0) return null;
  starredBy.sort();
  return { outputKey, starredBy, averageRating: ratings ? sum / ratings : null, ratings };
}

/**
 * Everyone's judgements in the room, and this member's writes. Constructed from the TeamContext (the
 * TeamSpace handle): it observes the `judgements` root from then on; `destroy` stops it.
 */
export class TeamJudgements {
  private readonly map: Y.Map<unknown>;
  /** outputKey -> memberId -> judgement: what the picks are computed from, kept in step per change. */
  private readonly byOutput = new Map<string, Map<string, TeamJudgement>>();
  private picks: TeamPicks = new Map();
  private readonly listeners = new Listeners();

  private readonly stopSaid: () => void;

  constructor(
    private readonly ctx: TeamContext,
    private readonly gate: ShareGate = OPEN_GATE,
    /** What the server moved out of the document with earlier tasks: read under the document's own. */
    private readonly said: EarlierSaid = new EarlierSaid(),
  ) {
    this.map = rootMap(ctx.doc, ROOTS.judgements);
    for (const key of this.map.keys()) this.read(key);
    for (const key of said.judgementKeys()) if (!this.map.has(key)) this.read(key);
    const next = new Map<string, TeamPick>();
    for (const [outputKey, byMember] of this.byOutput) {
      const pick = pickOf(outputKey, byMember);
      if (pick) next.set(outputKey, pick);
    }
    this.picks = next;
    this.map.observe(this.onChange);
    this.stopSaid = said.observe(({ judgements }) => this.reread(judgements));
  }

  destroy(): void {
    this.map.unobserve(this.onChange);
    this.stopSaid();
    this.listeners.clear();
  }

  subscribe = this.listeners.subscribe;

  /** "Team picks": every output some member starred or rated. */
  snapshot = (): TeamPicks => this.picks;

  /** One member's judgement of one output, as the document holds it (parsed). */
  get(memberId: string, outputKey: string): TeamJudgement | undefined {
    return this.byOutput.get(outputKey)?.get(memberId);
  }

  /** This member's judgements, by output key. */
  mine(): Map<string, TeamJudgement> {
    const out = new Map<string, TeamJudgement>();
    for (const [outputKey, byMember] of this.byOutput) {
      const j = byMember.get(this.ctx.memberId);
      if (j) out.set(outputKey, j);
    }
    return out;
  }

  /** Writes this member's judgement of outputs (a blank one is deleted), as one transaction. */
  setMine(
    changes: ReadonlyArray<{
      outputKey: string;
      starred: boolean;
      rating: number | null;
      updatedAt?: number;
    }>,
  ): void {
    if (changes.length === 0) return;
    // Past this member's share of the room the server refuses any growing change: new stars and ratings
    // stay on this device (removals still go).
    let bytes = 0;
    changes = changes.filter((c) => {
      if (isBlank(c)) return true;
      bytes += sizeOf(judgementKey(this.ctx.memberId, c.outputKey), {
        starred: c.starred,
        rating: c.rating,
        updatedAt: 0,
      });
      return this.gate.allows(bytes);
    });
    if (changes.length === 0) return;
    this.ctx.transact(() => {
      for (const c of changes) {
        const key = judgementKey(this.ctx.memberId, c.outputKey);
        if (isBlank(c)) {
          const held = this.map.has(key);
          // Where the room moves judgements (movesSaid) an un-star is a blank value: it overrides a star
          // the server has moved, and the server drops it once quiet. Elsewhere it is a deletion.
          if (!movesSaid(this.ctx.doc)) {
            if (held) this.map.delete(key);
            continue;
          }
          if (!held && this.said.judgement(key) === undefined) continue;
        }
        const value: TeamJudgement = {
          starred: c.starred,
          rating: c.rating,
          updatedAt: c.updatedAt ?? this.ctx.now(),
        };
        this.map.set(key, value);
      }
    });
  }

  /** Hears the judgement keys a page of earlier tasks brought (after they are read here). */
  observeEarlier(listener: (keys: readonly string[]) => void): () => void {
    return this.said.observe(({ judgements }) => {
      if (judgements.length > 0) listener(judgements);
    });
  }

  /** Mirrors the local JudgementStore of this member into the document and back (bridgeJudgements). */
  bridge(local: LocalJudgements, options: BridgeOptions = {}): () => void {
    return bridgeJudgements(this, this.ctx, local, options);
  }

  /**
   * Reads one key into byOutput, the document's value or else the one moved out of it; returns the output
   * key it touched, if any.
   */
  private read(key: string): string | null {
    const parsedKey = parseJudgementKey(key);
    if (!parsedKey) return null;
    const { memberId, outputKey } = parsedKey;
    const raw = this.map.has(key) ? this.map.get(key) : this.said.judgement(key);
    const parsed =
      raw === undefined || !acceptedRecord('judgements', key, raw)
        ? null
        : TeamJudgementSchema.safeParse(raw);
    let byMember = this.byOutput.get(outputKey);
    if (parsed?.success && !isBlank(parsed.data)) {
      if (!byMember) this.byOutput.set(outputKey, (byMember = new Map()));
      byMember.set(memberId, parsed.data);
    } else if (byMember) {
      // Deleted, or a value that does not parse (another studio's or a hostile client's): not counted.
      byMember.delete(memberId);
      if (byMember.size === 0) this.byOutput.delete(outputKey);
    }
    return outputKey;
  }

  private onChange = (event: Y.YMapEvent<unknown>) => {
    // A deletion is the server's move (movesSaid): what was shown stays, read from what was moved.
    if (movesSaid(this.ctx.doc)) {
      for (const [key, change] of event.changes.keys) {
        if (change.action === 'delete') this.said.keepJudgement(key, change.oldValue);
      }
    }
    this.reread(event.keysChanged);
  };

  private reread(keys: Iterable<string>): void {
    const touched = new Set<string>();
    for (const key of keys) {
      const outputKey = this.read(key);
      if (outputKey) touched.add(outputKey);
    }
    if (touched.size === 0) return;
    const next = new Map(this.picks);
    for (const outputKey of touched) {
      const byMember = this.byOutput.get(outputKey);
      const pick = byMember ? pickOf(outputKey, byMember) : null;
      if (pick) next.set(outputKey, pick);
      else next.delete(outputKey);
    }
    this.picks = next;
    this.listeners.notify();
  }
}

/** What the bridge needs of the local JudgementStore (model/history/judgements.ts). */
export interface LocalJudgements {
  subscribe(listener: () => void): () => void;
  snapshot(): Judgements;
  set(outputKey: string, judgement: { starred: boolean; rating: number | null }): Promise<void>;
}

export interface BridgeOptions {
  /**
   * Share what this device judged before the bridge started (docs/team-space.md: what is already on a
   * device is shared only when the member says so). Off: only changes from now on go to the team, and the
   * member's judgements from the document still come back to this device.
   */
  shareExisting?: boolean;
}

/**
 * Mirrors the local JudgementStore of this member into the document and back: a star or rating made
 * in the Gallery is written under this member's key; one that arrives from another of this member's
 * devices (the same member id) is written to the local store. Where both hold a judgement when the
 * bridge starts, the newer one (updatedAt) wins. Returns the function that stops it.
 */
function bridgeJudgements(
  team: TeamJudgements,
  ctx: TeamContext,
  local: LocalJudgements,
  options: BridgeOptions = {},
): () => void {
  const docMap = rootMap(ctx.doc, ROOTS.judgements);
  const inDoc = (outputKey: string) => team.get(ctx.memberId, outputKey);

  // Start: what the document holds of this member and is newer comes here; what this device holds and
  // is newer goes there (when shared).
  const start = local.snapshot();
  const mine = team.mine();
  const toDoc: Array<{ outputKey: string; starred: boolean; rating: number | null; updatedAt: number }> = [];
  for (const [outputKey, j] of mine) {
    const here = start.get(outputKey);
    if (same(here, j)) continue;
    // A judgement the team already has of this member's, newer here (a change the server never got: a
    // copy dropped after a refused change, a device offline meanwhile), goes there, not the older back.
    if (here && here.updatedAt > j.updatedAt) toDoc.push(here);
    else void local.set(outputKey, { starred: j.starred, rating: j.rating });
  }
  if (options.shareExisting) {
    for (const [outputKey, j] of start) {
      const there = mine.get(outputKey);
      if (!same(there, j) && (!there || j.updatedAt > there.updatedAt)) toDoc.push(j);
    }
  }
  team.setMine(toDoc);

  let previous = local.snapshot();
  const offLocal = local.subscribe(() => {
    const next = local.snapshot();
    if (next === previous) return;
    const changes: Judgement[] = [];
    for (const [outputKey, j] of next) {
      if (previous.get(outputKey) !== j && !same(inDoc(outputKey), j)) changes.push(j);
    }
    for (const outputKey of previous.keys()) {
      if (!next.has(outputKey) && inDoc(outputKey)) {
        changes.push({ outputKey, starred: false, rating: null, updatedAt: ctx.now() });
      }
    }
    previous = next;
    team.setMine(changes);
  });

  // Back: this member's keys changed by anyone but this handle (another device of the same member,
  // synced in). The store has read the change already (it observed first).
  const onDoc = (event: Y.YMapEvent<unknown>) => {
    if (event.transaction.origin === ctx.origin) return;
    for (const key of event.keysChanged) {
      const parsed = parseJudgementKey(key);
      if (!parsed || parsed.memberId !== ctx.memberId) continue;
      const there = inDoc(parsed.outputKey);
      const here = local.snapshot().get(parsed.outputKey);
      if (!same(there, here)) {
        void local.set(parsed.outputKey, { starred: there?.starred ?? false, rating: there?.rating ?? null });
      }
    }
  };
  docMap.observe(onDoc);
  // And this member's judgements of earlier tasks, as their pages are read (another device made them):
  // the Gallery shows them starred here too, unless this device changed them since.
  const offEarlier = team.observeEarlier((keys) => {
    for (const key of keys) {
      const parsed = parseJudgementKey(key);
      if (!parsed || parsed.memberId !== ctx.memberId) continue;
      const there = inDoc(parsed.outputKey);
      const here = local.snapshot().get(parsed.outputKey);
      if (!there || same(there, here) || (here && here.updatedAt > there.updatedAt)) continue;
      void local.set(parsed.outputKey, { starred: there.starred, rating: there.rating });
    }
  });
  return () => {
    offLocal();
    docMap.unobserve(onDoc);
    offEarlier();
  };
}
