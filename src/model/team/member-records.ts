import {
  acceptedRecord,
  fieldsOf,
  ownerOf,
  schemaVersionOf,
  type TeamDocRoot,
} from '../../../contract/team-doc';
import type { z } from 'zod/mini';
import type * as Y from 'yjs';
import { Listeners } from '../../lib/store';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { parseJudgementKey } from './team-judgements';
import { ownerNow, sizeOf, type ShareGate } from './team-share';

// The part that the team space's stores of one member's plain records share (team-tags.ts,
// team-reviews.ts, team-searches.ts): one root of the document, each record a plain JSON value that one
// member owns, the last write wins. A record is keyed either `${memberId}|${outputKey}` (its member in the
// key: tags, reviews) or by its own id with its author in the value (saved searches: contract/team-doc.ts
// ownerOf). This module observes the root and re-reads only the keys a change touched; parses each value
// as untrusted (another member's studio or a hostile client wrote it: what the contract or the schema
// refuses is left out, never fatal); keeps everyone's records by subject (the output, or the id) with an
// immutable view; writes only this member's records, in one transaction; and mirrors this member's
// records with their local store on this device (mirrorMine). What each store adds is its schema, its
// record's shape, which view is its snapshot, and what its local store is.

/** Every record says when it was last written: the newer one wins, and lists show the newest first. */
interface Timed {
  readonly at: number;
}

/** Where a key's record belongs: whose it is and what it is about (an output key, or the record's id). */
interface Place {
  memberId: string;
  subject: string;
}

export interface RecordsSpec<S extends z.ZodMiniType, R extends Timed> {
  root: TeamDocRoot;
  /** The schema version from which the room's server keeps the root (an older one refuses it as unknown). */
  keptFrom: number;
  /**
   * 'member': keys are `${memberId}|${outputKey}`, the member named by the key (the judgements' shape);
   * 'id': keys are the records' ids, the member named by the value (ownerOf).
   */
  keyed: 'member' | 'id';
  /** What a value must be, read or written (on top of the contract's bounds, acceptedRecord). */
  schema: S;
  /** The record kept for a parsed value, or null to leave it out (a list of tags with none kept). */
  record(data: z.output<S>, place: Place): R | null;
}

/** A write of one of this member's records: its value, or null to take it away. */
interface RecordWrite<S extends z.ZodMiniType> {
  subject: string;
  value: z.input<S> | null;
}

const OUTPUT_KEY = /^.+#\d+$/;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Everyone's records in one root, and this member's writes. It observes the root from construction;
 * `destroy` stops it.
 */
export class MemberRecords<S extends z.ZodMiniType, R extends Timed> {
  private readonly map: Y.Map<unknown>;
  private readonly byKey = new Map<string, Place & { record: R }>();
  /** subject -> memberId -> record: what the views are made of, kept in step per change. */
  private readonly index = new Map<string, Map<string, R>>();
  /** The view by subject, built when first asked for; `stale` names the subjects changed since. */
  private grouped: Map<string, readonly R[]> | null = null;
  private readonly stale = new Set<string>();
  private all: readonly R[] | null = null;
  private readonly listeners = new Listeners();
  private readonly remote = new Listeners<[keys: ReadonlySet<string>]>();

  constructor(
    private readonly ctx: TeamContext,
    private readonly gate: ShareGate,
    private readonly spec: RecordsSpec<S, R>,
  ) {
    this.map = rootMap(ctx.doc, spec.root);
    for (const key of this.map.keys()) this.read(key);
    this.map.observe(this.onChange);
  }

  destroy(): void {
    this.map.unobserve(this.onChange);
    this.listeners.clear();
    this.remote.clear();
  }

  readonly subscribe = this.listeners.subscribe;

  /**
   * Hears the keys a change made elsewhere touched (another device of this member, another member), once
   * this store has read them.
   */
  readonly onRemote = this.remote.subscribe;

  /**
   * Everyone's records by subject, each subject's newest first (ties: by member, so every copy lists them
   * alike). Immutable: a new Map after each change, the same list for a subject the change left alone.
   */
  bySubject(): ReadonlyMap<string, readonly R[]> {
    if (!this.grouped) {
      this.grouped = new Map();
      for (const subject of this.index.keys()) this.grouped.set(subject, this.listOf(subject)!);
    } else if (this.stale.size > 0) {
      const next = new Map(this.grouped);
      for (const subject of this.stale) {
        const list = this.listOf(subject);
        if (list) next.set(subject, list);
        else next.delete(subject);
      }
      this.grouped = next;
    }
    this.stale.clear();
    return this.grouped;
  }

  /** Every record, newest first (ties: by subject, then member). Immutable: a new array after each change. */
  list(): readonly R[] {
    this.all ??= [...this.byKey.values()]
      .sort(
        (a, b) =>
          b.record.at - a.record.at || compare(a.subject, b.subject) || compare(a.memberId, b.memberId),
      )
      .map((p) => p.record);
    return this.all;
  }

  /** One member's record of a subject, as parsed. */
  get(subject: string, memberId: string): R | undefined {
    return this.index.get(subject)?.get(memberId);
  }

  /** The record under a key of the root (an id-keyed root's key is its subject), as parsed. */
  at(key: string): R | undefined {
    return this.byKey.get(key)?.record;
  }

  /** This member's records, by subject. */
  mine(): Map<string, R> {
    const out = new Map<string, R>();
    for (const p of this.byKey.values()) if (p.memberId === this.ctx.memberId) out.set(p.subject, p.record);
    return out;
  }

  /** Whether the room's server keeps this root; else its records stay on the device. */
  shared(): boolean {
    return schemaVersionOf(this.ctx.doc) >= this.spec.keptFrom;
  }

  /**
   * The subject of `key` when the record there is (or would be) this member's, else null: a member-keyed
   * key names its member; an id held by another member is theirs.
   */
  ownSubject(key: string): string | null {
    if (this.spec.keyed === 'member') {
      const parsed = parseJudgementKey(key);
      return parsed?.memberId === this.ctx.memberId ? parsed.outputKey : null;
    }
    const held = this.byKey.get(key);
    return held && held.memberId !== this.ctx.memberId ? null : key;
  }

  /**
   * Writes this member's records (a null value takes one away), as one transaction. A record only ever
   * goes under a key that is this member's and with a value that names this member (the server refuses
   * anything else): a subject held by another member, a value of another shape or past the contract's
   * bounds is skipped. Past this member's share of the room the server refuses any growing change, so a
   * new value that does not fit stays on this device (taking one away still goes). False, and nothing
   * written, in a room whose server does not keep the root.
   */
  write(changes: readonly RecordWrite<S>[]): boolean {
    if (!this.shared()) return false;
    const { root, schema } = this.spec;
    const me = this.ctx.memberId;
    let bytes = 0;
    const kept: Array<{ key: string; value: unknown }> = [];
    for (const { subject, value } of changes) {
      const key = this.keyOf(subject);
      if (key === null) continue;
      const owner = ownerNow(this.ctx.doc, root, key);
      if (owner !== undefined && owner !== me) continue;
      if (value === null) {
        if (owner !== undefined) kept.push({ key, value: null });
        continue;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success || !acceptedRecord(root, key, parsed.data)) continue;
      if (ownerOf(root, key, fieldsOf(parsed.data)) !== me) continue;
      bytes += sizeOf(key, parsed.data);
      if (this.gate.allows(bytes)) kept.push({ key, value: parsed.data });
    }
    if (kept.length === 0) return true;
    this.ctx.transact(() => {
      for (const { key, value } of kept) {
        if (value === null) this.map.delete(key);
        else this.map.set(key, value);
      }
    });
    return true;
  }

  /** The key of this member's record of `subject`, or null for a subject no record of this root has. */
  private keyOf(subject: string): string | null {
    if (this.spec.keyed === 'id') return subject;
    return OUTPUT_KEY.test(subject) ? `${this.ctx.memberId}|${subject}` : null;
  }

  /** The subject a key's record is about, or null for a key this studio did not write (not read). */
  private subjectOf(key: string): string | null {
    return this.spec.keyed === 'id' ? key : (parseJudgementKey(key)?.outputKey ?? null);
  }

  /** The record under `key` with its place, or null when there is none this studio reads. */
  private parse(key: string, subject: string): (Place & { record: R }) | null {
    const { root, schema } = this.spec;
    const raw = this.map.get(key);
    if (raw === undefined || !acceptedRecord(root, key, raw)) return null;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return null;
    const memberId = ownerOf(root, key, fieldsOf(raw));
    if (memberId === null) return null;
    const record = this.spec.record(parsed.data, { memberId, subject });
    return record && { memberId, subject, record };
  }

  /** Reads one key again; returns the subject it is about, or null for a key this store does not read. */
  private read(key: string): string | null {
    const subject = this.subjectOf(key);
    if (subject === null) return null;
    const before = this.byKey.get(key);
    if (before) {
      const members = this.index.get(before.subject)!;
      members.delete(before.memberId);
      if (members.size === 0) this.index.delete(before.subject);
      this.byKey.delete(key);
    }
    // Taken away, or a value that does not parse (another studio's or a hostile client's): not shown.
    const now = this.parse(key, subject);
    if (now) {
      this.byKey.set(key, now);
      let members = this.index.get(subject);
      if (!members) this.index.set(subject, (members = new Map()));
      members.set(now.memberId, now.record);
    }
    return subject;
  }

  /** One subject's records, newest first, or null when it has none. */
  private listOf(subject: string): R[] | null {
    const members = this.index.get(subject);
    if (!members) return null;
    return [...members]
      .sort(([ma, a], [mb, b]) => b.at - a.at || compare(ma, mb))
      .map(([, record]) => record);
  }

  private onChange = (event: Y.YMapEvent<unknown>) => {
    let touched = false;
    for (const key of event.keysChanged) {
      const subject = this.read(key);
      if (subject === null) continue;
      touched = true;
      if (this.grouped) this.stale.add(subject);
    }
    if (touched) {
      this.all = null;
      this.listeners.notify();
    }
    if (event.transaction.origin !== this.ctx.origin) this.remote.notify(event.keysChanged);
  };
}

/**
 * What mirrorMine needs: this member's records in their local store on this device (L, by subject), and
 * the team store's own change (C) that writes one of them to the room.
 */
interface Mirror<R extends Timed, L extends Timed, C> {
  /** This member's local records by subject: the same Map until they change. */
  local(): ReadonlyMap<string, L>;
  subscribe(listener: () => void): () => void;
  /** Whether the room's record and the local one say the same (both absent included). */
  same(there: R | undefined, here: L | undefined): boolean;
  /** Keeps the room's record on this device (undefined: takes the local one away). */
  toLocal(subject: string, there: R | undefined): void;
  /** The change that writes the local record to the room (undefined: takes it away there). */
  change(subject: string, here: L | undefined): C;
  /** The team store's setMine. */
  write(changes: C[]): unknown;
}

/**
 * Mirrors this member's local records into the room and back: one made, changed or taken away on this
 * device is written under this member's name; one that arrives from another of this member's devices
 * (the same member id) is kept in the local store with its time. Where both hold a record when the
 * mirror starts, the newer one (`at`) wins; what only this device holds goes to the team when
 * `shareExisting` says so (docs/team-space.md: what is already on a device is shared only when the member
 * says so). In a room that does not keep the root nothing is written there. Returns the function that
 * stops it.
 */
export function mirrorMine<S extends z.ZodMiniType, R extends Timed, L extends Timed, C>(
  team: MemberRecords<S, R>,
  ctx: TeamContext,
  mirror: Mirror<R, L, C>,
  options: { shareExisting?: boolean },
): () => void {
  const inDoc = (subject: string) => team.get(subject, ctx.memberId);

  const since = ctx.now();
  const start = mirror.local();
  const mine = team.mine();
  const toDoc: C[] = [];
  for (const [subject, there] of mine) {
    const here = start.get(subject);
    if (mirror.same(there, here)) continue;
    // A record newer here (a change the server never got) goes there, not the older one back.
    if (here && here.at > there.at) toDoc.push(mirror.change(subject, here));
    else mirror.toLocal(subject, there);
  }
  if (options.shareExisting) {
    for (const [subject, here] of start) if (!mine.has(subject)) toDoc.push(mirror.change(subject, here));
  }
  mirror.write(toDoc);

  let previous = mirror.local();
  const offLocal = mirror.subscribe(() => {
    const next = mirror.local();
    if (next === previous) return;
    const changes: C[] = [];
    for (const [subject, here] of next) {
      if (previous.get(subject) !== here && !mirror.same(inDoc(subject), here)) {
        changes.push(mirror.change(subject, here));
      }
    }
    for (const subject of previous.keys()) {
      if (!next.has(subject) && inDoc(subject)) changes.push(mirror.change(subject, undefined));
    }
    previous = next;
    mirror.write(changes);
  });

  // Back: this member's records changed by anyone but this handle (another device of the same member,
  // synced in). Another member's record is theirs, shown from the team's view, never kept on this device.
  const offRemote = team.onRemote((keys) => {
    for (const key of keys) {
      const subject = team.ownSubject(key);
      if (subject === null) continue;
      const there = inDoc(subject);
      if (!mirror.same(there, mirror.local().get(subject))) mirror.toLocal(subject, there);
    }
  });

  // The room's version may arrive after the mirror started (this device's copy is read first, the
  // server's after): once the room keeps the root, what this member made meanwhile (and, when shared,
  // before) goes there too.
  const meta = rootMap(ctx.doc, ROOTS.meta);
  let shared = team.shared();
  const onMeta = () => {
    if (shared || !(shared = team.shared())) return;
    const changes: C[] = [];
    for (const [subject, here] of mirror.local()) {
      const there = inDoc(subject);
      if (mirror.same(there, here) || (there && there.at >= here.at)) continue;
      if (options.shareExisting || here.at >= since) changes.push(mirror.change(subject, here));
    }
    mirror.write(changes);
  };
  meta.observe(onMeta);
  return () => {
    offLocal();
    offRemote();
    meta.unobserve(onMeta);
  };
}
