import { acceptedRecord, schemaVersionOf } from '../../../contract/team-doc';
import { z } from 'zod/mini';
import type * as Y from 'yjs';
import { cleanTags, type MemberTags, type MembersTags, type TagRecord } from '../history/tags';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { parseJudgementKey } from './team-judgements';
import { OPEN_GATE, sizeOf, type ShareGate } from './team-share';
import { Listeners } from '../../lib/store';

// Tags in the team space (docs/team-space.md "Judgements and comments"): each member's tags of an output
// are theirs, under `${memberId}|${outputKey}` in the `tags` root (the key's shape is the judgements'), a
// plain value `{ tags, at }`: the last write wins. The server refuses a list written or removed under
// another member's key, and one past the contract's bounds; this module only ever writes under this
// member's. The root is schema version 5's: a room's server of an older version would refuse it as
// unknown, so there the tags stay on this device. The Gallery and the search keep using the local
// TagStore (with everyone's tags joined by tagsByOutput); bridgeTags mirrors this member's tags into the
// document and back (another of their devices changes them too).

/** One member's tags of one output, as the document holds them (the tags cleaned as they are read). */
const TeamTagsSchema = z.object({
  tags: z.array(z.unknown()),
  at: z.number().check(z.gte(0)),
});

const OUTPUT_KEY = /^.+#\d+$/;

const tagKey = (memberId: string, outputKey: string): string => `${memberId}|${outputKey}`;

/** Whether the room's server keeps tags (the `tags` root came with schema version 5). */
const keepsTags = (doc: Y.Doc): boolean => schemaVersionOf(doc) >= 5;

type TagsValue = { tags: readonly string[]; at: number };

const same = (a: TagsValue | undefined, b: TagsValue | undefined): boolean =>
  a === b ||
  (!!a && !!b && a.at === b.at && a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags[i]));

/** One output's lists, newest first (ties: by member, so every copy lists them alike). */
const listOf = (byMember: ReadonlyMap<string, MemberTags>): MemberTags[] =>
  [...byMember.values()].sort((a, b) => b.at - a.at || (a.memberId < b.memberId ? -1 : 1));

/** A change of this member's tags of one output: the whole list (an empty one, or null, takes it away). */
export interface TagsChange {
  outputKey: string;
  tags: readonly string[] | null;
  at?: number;
}

/**
 * Everyone's tags in the room, and this member's writes. Constructed from the TeamContext (the TeamSpace
 * handle): it observes the `tags` root from then on; `destroy` stops it.
 */
export class TeamTags {
  private readonly map: Y.Map<unknown>;
  /** outputKey -> memberId -> tags: what the snapshot is made of, kept in step per change. */
  private readonly byOutput = new Map<string, Map<string, MemberTags>>();
  private view: MembersTags = new Map();
  private readonly listeners = new Listeners();

  constructor(
    private readonly ctx: TeamContext,
    private readonly gate: ShareGate = OPEN_GATE,
  ) {
    this.map = rootMap(ctx.doc, ROOTS.tags);
    for (const key of this.map.keys()) this.read(key);
    const next = new Map<string, MemberTags[]>();
    for (const [outputKey, byMember] of this.byOutput) next.set(outputKey, listOf(byMember));
    this.view = next;
    this.map.observe(this.onChange);
  }

  destroy(): void {
    this.map.unobserve(this.onChange);
    this.listeners.clear();
  }

  subscribe = this.listeners.subscribe;

  /** Everyone's tags, by output key, the newest list first. Immutable: a new Map after each change. */
  snapshot = (): MembersTags => this.view;

  /** One member's tags of one output, as the document holds them (cleaned). */
  get(memberId: string, outputKey: string): MemberTags | undefined {
    return this.byOutput.get(outputKey)?.get(memberId);
  }

  /** This member's tags, by output key. */
  mine(): Map<string, MemberTags> {
    const out = new Map<string, MemberTags>();
    for (const [outputKey, byMember] of this.byOutput) {
      const r = byMember.get(this.ctx.memberId);
      if (r) out.set(outputKey, r);
    }
    return out;
  }

  /** Whether tags are shared in this room (its server keeps them); else they stay on the device. */
  shared(): boolean {
    return keepsTags(this.ctx.doc);
  }

  /**
   * Writes this member's lists (an empty one is taken away), as one transaction, always under this
   * member's own key, each cleaned to the contract's bounds. False, and nothing written, in a room whose
   * server does not keep tags.
   */
  setMine(changes: readonly TagsChange[]): boolean {
    if (!this.shared()) return false;
    // Past this member's share of the room the server refuses any growing change: new tags stay on this
    // device (taking them away still goes).
    let bytes = 0;
    const kept: Array<{ key: string; value: TagsValue | null }> = [];
    for (const { outputKey, tags, at } of changes) {
      if (!OUTPUT_KEY.test(outputKey)) continue;
      const key = tagKey(this.ctx.memberId, outputKey);
      const clean = cleanTags(tags ?? []);
      if (clean.length === 0) {
        if (this.map.has(key)) kept.push({ key, value: null });
        continue;
      }
      const value = { tags: clean, at: at ?? this.ctx.now() };
      if (!acceptedRecord('tags', key, value)) continue;
      bytes += sizeOf(key, value);
      if (this.gate.allows(bytes)) kept.push({ key, value });
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

  /** Mirrors the local TagStore of this member into the document and back (bridgeTags). */
  bridge(local: LocalTags, options: { shareExisting?: boolean } = {}): () => void {
    return bridgeTags(this, this.ctx, local, options);
  }

  /** Reads one key into byOutput; returns the output key it touched, if any. */
  private read(key: string): string | null {
    const parsedKey = parseJudgementKey(key);
    if (!parsedKey) return null;
    const { memberId, outputKey } = parsedKey;
    const raw = this.map.get(key);
    const parsed =
      raw === undefined || !acceptedRecord('tags', key, raw) ? null : TeamTagsSchema.safeParse(raw);
    const tags = parsed?.success ? cleanTags(parsed.data.tags) : [];
    let byMember = this.byOutput.get(outputKey);
    if (parsed?.success && tags.length) {
      if (!byMember) this.byOutput.set(outputKey, (byMember = new Map()));
      byMember.set(memberId, { memberId, tags, at: parsed.data.at });
    } else if (byMember) {
      // Taken away, or a value that does not parse (another studio's or a hostile client's): not shown.
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

/** What the bridge needs of the local TagStore (model/history/tags.ts). */
export interface LocalTags {
  subscribe(listener: () => void): () => void;
  /** This member's lists with their times; a new Map after every change. */
  records(): ReadonlyMap<string, TagRecord>;
  setTags(outputKey: string, tags: readonly string[], at: number): Promise<void>;
}

/**
 * Mirrors the local TagStore of this member into the document and back: tags added or removed in the
 * Gallery or the Viewer are written under this member's key; a list that arrives from another of this
 * member's devices (the same member id) is written to the local store with its time. Where both hold a
 * list when the bridge starts, the newer one (`at`) wins; what only this device holds goes to the team
 * when `shareExisting` says so (docs/team-space.md: what is already on a device is shared only when the
 * member says so). In a room that keeps no tags nothing is written there. Returns the function that stops
 * it.
 */
function bridgeTags(
  team: TeamTags,
  ctx: TeamContext,
  local: LocalTags,
  options: { shareExisting?: boolean },
): () => void {
  const docMap = rootMap(ctx.doc, ROOTS.tags);
  const inDoc = (outputKey: string) => team.get(ctx.memberId, outputKey);
  const toLocal = (outputKey: string, there: TagsValue | undefined) =>
    void local.setTags(outputKey, there?.tags ?? [], there?.at ?? ctx.now());
  const change = (outputKey: string, here: TagsValue | undefined): TagsChange =>
    here ? { outputKey, tags: here.tags, at: here.at } : { outputKey, tags: null };

  const since = ctx.now();
  const start = local.records();
  const mine = team.mine();
  const toDoc: TagsChange[] = [];
  for (const [outputKey, there] of mine) {
    const here = start.get(outputKey);
    if (same(here, there)) continue;
    // A list newer here (a change the server never got) goes there, not the older one back.
    if (here && here.at > there.at) toDoc.push(change(outputKey, here));
    else toLocal(outputKey, there);
  }
  if (options.shareExisting) {
    for (const [outputKey, here] of start) if (!mine.has(outputKey)) toDoc.push(change(outputKey, here));
  }
  team.setMine(toDoc);

  let previous = local.records();
  const offLocal = local.subscribe(() => {
    const next = local.records();
    if (next === previous) return;
    const changes: TagsChange[] = [];
    for (const [outputKey, here] of next) {
      if (previous.get(outputKey) !== here && !same(inDoc(outputKey), here))
        changes.push(change(outputKey, here));
    }
    for (const outputKey of previous.keys()) {
      if (!next.has(outputKey) && inDoc(outputKey)) changes.push(change(outputKey, undefined));
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
      const here = local.records().get(parsed.outputKey);
      if (!same(there, here)) toLocal(parsed.outputKey, there);
    }
  };
  docMap.observe(onDoc);

  // The room's version may arrive after the bridge started (this device's copy is read first, the server's
  // after): once the room keeps tags, what this member tagged meanwhile (and, when shared, before) goes
  // there too.
  const meta = rootMap(ctx.doc, ROOTS.meta);
  let shared = team.shared();
  const onMeta = () => {
    if (shared || !(shared = team.shared())) return;
    const changes: TagsChange[] = [];
    for (const [outputKey, here] of local.records()) {
      const there = inDoc(outputKey);
      if (same(there, here) || (there && there.at >= here.at)) continue;
      if (options.shareExisting || here.at >= since) changes.push(change(outputKey, here));
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
