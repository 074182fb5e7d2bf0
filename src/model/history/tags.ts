import { z } from 'zod/mini';
import { TEAM_DOC_TAGS } from '../../../contract/team-doc';
import type { HistorySection } from './history-store';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// Tags of outputs ("portrait", "client-a", "needs-upscale"), kept per connection in IndexedDB (store `tags`,
// key [connectionId, outputKey], outputKey `${taskId}#${index}`): one list per output, this member's, with
// the time it last changed. A plain store, as reviews.ts: subscribe/snapshot for useSyncExternalStore;
// every read (database, imported file, the team's document) is parsed and cleaned. In a team the list is
// also the member's entry in the room's `tags` root (team/team-tags.ts), and what the search matches is
// everyone's tags of an output (tagsByOutput).

/**
 * The most tags one output has (the team-space contract's bound: a longer list would be refused there).
 * @internal
 */
export const MAX_TAGS = TEAM_DOC_TAGS.maxTags;
/** The longest tag, in UTF-16 code units (as the contract counts). */
export const MAX_TAG_LENGTH = TEAM_DOC_TAGS.maxTagLength;

/** Why a tag typed in is not one: nothing left once trimmed, too long, or a character tags do not take. */
export type TagError = 'empty' | 'too-long' | 'characters';

/** Letters, marks and digits of any script, '-' and '_'. */
const TAG_CHARACTERS = /^[\p{L}\p{M}\p{N}_-]+$/u;

/**
 * A tag as typed, in the one form it is kept in: trimmed, lower case, each run of white space one '-'
 * ("Client A" -> "client-a"). Answers the reason when what is left is not a tag.
 */
export function normalizeTag(raw: string): { ok: true; tag: string } | { ok: false; error: TagError } {
  const tag = raw.normalize('NFC').trim().toLowerCase().replace(/\s+/gu, '-');
  if (tag.length === 0) return { ok: false, error: 'empty' };
  if (tag.length > MAX_TAG_LENGTH) return { ok: false, error: 'too-long' };
  if (!TAG_CHARACTERS.test(tag)) return { ok: false, error: 'characters' };
  return { ok: true, tag };
}

/** Whether a string is a tag in its kept form (what another studio or a file holds is read with it). */
const isTag = (v: unknown): v is string => {
  if (typeof v !== 'string') return false;
  const n = normalizeTag(v);
  return n.ok && n.tag === v;
};

/**
 * A list read from outside (the database, a file, the team's document) as this studio keeps one: its
 * tags in their kept form, each once, at most MAX_TAGS; anything else left out.
 */
export function cleanTags(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const v of raw) {
    if (out.length >= MAX_TAGS) break;
    if (isTag(v) && !out.includes(v)) out.push(v);
  }
  return out;
}

const OUTPUT_KEY = /^.+#\d+$/;

/** One output's tags as kept and as exported (without the connection). */
const TagRecordSchema = z.object({
  outputKey: z.string().check(z.regex(OUTPUT_KEY)),
  tags: z.array(z.unknown()),
  at: z.number().check(z.gte(0)),
});
export interface TagRecord {
  outputKey: string;
  /** In the order they were added, each once, 1 to MAX_TAGS of them. */
  tags: readonly string[];
  /** When the list last changed. */
  at: number;
}

/** A record that parsed, cleaned; null when no tag of it is left. */
function cleanRecord({ outputKey, tags, at }: z.infer<typeof TagRecordSchema>): TagRecord | null {
  const clean = cleanTags(tags);
  return clean.length ? { outputKey, tags: clean, at } : null;
}

/** A record read from outside, cleaned; null when it does not parse or no tag of it is left. */
function readRecord(raw: unknown): TagRecord | null {
  const parsed = TagRecordSchema.safeParse(raw);
  return parsed.success ? cleanRecord(parsed.data) : null;
}

/** Tags by output key. Immutable: a new Map after every change. */
export type Tags = ReadonlyMap<string, readonly string[]>;

/** One member's tags of one output, as a team shows them (team-tags.ts reads them). */
export interface MemberTags {
  memberId: string;
  tags: readonly string[];
  at: number;
}

/** Everyone's tags by output key, newest first within an output. */
export type MembersTags = ReadonlyMap<string, readonly MemberTags[]>;

/** A tag and how many outputs carry it (the suggestions as a tag is typed). */
export interface TagCount {
  tag: string;
  count: number;
}

/** How a change of tags went: how many outputs changed, how many were full already (MAX_TAGS). */
export type TagChange = { ok: true; changed: number; full: number } | { ok: false; error: TagError };

const EMPTY_RECORDS: ReadonlyMap<string, TagRecord> = new Map();
const EMPTY_TAGS: readonly string[] = [];

/**
 * The tags each output is found by (the search's and the Gallery's): this member's own (`mine`, this
 * device's, always counted, in the order added) and, in a team, everyone else's after them (`team`, the
 * newest list first), each tag once. The same Map as `mine` when there is no team.
 */
export function tagsByOutput(mine: Tags, team?: MembersTags): Tags {
  if (!team || team.size === 0) return mine;
  const out = new Map<string, readonly string[]>(mine);
  for (const [outputKey, list] of team) {
    const union = new Set(mine.get(outputKey));
    for (const { tags } of list) for (const tag of tags) union.add(tag);
    if (union.size) out.set(outputKey, [...union]);
  }
  return out;
}

/** Every tag of `byOutput` with the number of outputs carrying it: the most used first, then by name. */
export function countTags(byOutput: Tags): TagCount[] {
  const counts = new Map<string, number>();
  for (const tags of byOutput.values()) for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

export class TagStore {
  private byKey: ReadonlyMap<string, TagRecord> = EMPTY_RECORDS;
  private view: Tags = new Map();
  private counts: TagCount[] | null = null;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly stored: LocalRecords<'tags', z.infer<typeof TagRecordSchema>>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    { now = Date.now, ...io }: { now?: () => number } & LocalIo,
  ): Promise<TagStore> {
    const stored = new LocalRecords('tags', connectionId, TagRecordSchema, io);
    const store = new TagStore(connectionId, now, stored);
    const next = new Map<string, TagRecord>();
    for (const parsed of await stored.load()) {
      const record = cleanRecord(parsed);
      if (record) next.set(record.outputKey, record);
    }
    store.adopt(next);
    return store;
  }

  subscribe = this.listeners.subscribe;

  /** This member's tags by output key. Immutable: a new Map after every change. */
  snapshot = (): Tags => this.view;

  /** The records behind the snapshot, with the time each list last changed (the team's bridge). */
  records = (): ReadonlyMap<string, TagRecord> => this.byKey;

  /** One output's tags (none: an empty list). */
  get(outputKey: string): readonly string[] {
    return this.view.get(outputKey) ?? EMPTY_TAGS;
  }

  /** Every tag of this member's with the number of outputs carrying it, the most used first. */
  allTags(): readonly TagCount[] {
    return (this.counts ??= countTags(this.view));
  }

  private adopt(next: ReadonlyMap<string, TagRecord>) {
    this.byKey = next;
    this.view = new Map([...next].map(([outputKey, r]) => [outputKey, r.tags]));
    this.counts = null;
  }

  /** Writes lists (an empty one is deleted) in one transaction; one notification. */
  private async write(changes: readonly TagRecord[]) {
    if (changes.length === 0) return;
    const next = new Map(this.byKey);
    for (const change of changes) {
      if (change.tags.length) next.set(change.outputKey, change);
      else next.delete(change.outputKey);
    }
    this.adopt(next);
    this.listeners.notify();
    // Shown at once, so written at once: a reload right after the click keeps it (commitNow).
    await this.stored.write(
      changes.map((r) =>
        r.tags.length
          ? { put: { outputKey: r.outputKey, tags: [...r.tags], at: r.at } }
          : { remove: r.outputKey },
      ),
    );
  }

  /**
   * Adds a tag (as typed: normalizeTag) to each of the outputs (one, or the Gallery's selection). An
   * output that has it already is left; one that has MAX_TAGS already is left and counted as full.
   */
  async add(outputKeys: readonly string[], raw: string): Promise<TagChange> {
    const n = normalizeTag(raw);
    if (!n.ok) return n;
    const at = this.now();
    let full = 0;
    const changes: TagRecord[] = [];
    for (const outputKey of new Set(outputKeys)) {
      if (!OUTPUT_KEY.test(outputKey)) continue;
      const tags = this.get(outputKey);
      if (tags.includes(n.tag)) continue;
      if (tags.length >= MAX_TAGS) full++;
      else changes.push({ outputKey, tags: [...tags, n.tag], at });
    }
    await this.write(changes);
    return { ok: true, changed: changes.length, full };
  }

  /** Takes a tag (as typed) off each of the outputs that have it. */
  async remove(outputKeys: readonly string[], raw: string): Promise<TagChange> {
    const n = normalizeTag(raw);
    if (!n.ok) return n;
    const at = this.now();
    const changes: TagRecord[] = [];
    for (const outputKey of new Set(outputKeys)) {
      const tags = this.get(outputKey);
      if (tags.includes(n.tag)) changes.push({ outputKey, tags: tags.filter((t) => t !== n.tag), at });
    }
    await this.write(changes);
    return { ok: true, changed: changes.length, full: 0 };
  }

  /**
   * Sets one output's whole list, cleaned (an empty one takes its tags away). `at` defaults to now: the
   * team space gives the time of a change made on another of this member's devices (team-tags.ts).
   */
  async setTags(outputKey: string, tags: readonly string[], at: number = this.now()): Promise<void> {
    if (!OUTPUT_KEY.test(outputKey)) return;
    const clean = cleanTags(tags);
    if (clean.length === 0 && !this.byKey.has(outputKey)) return;
    await this.write([{ outputKey, tags: clean, at }]);
  }

  /** For the history export: every output's list, without the connection. */
  list(): TagRecord[] {
    return [...this.byKey.values()];
  }

  /**
   * Adds lists from an imported file, each parsed and cleaned; one whose output the history does not know
   * (`knows` says no) is skipped and counted, as is one that does not parse. A file's tags join those of
   * the output here (an import adds, it never takes a tag away), up to MAX_TAGS.
   */
  async importMany(
    raws: readonly unknown[],
    knows: (outputKey: string) => boolean,
  ): Promise<{ kept: number; unknown: number; invalid: number }> {
    const result = { kept: 0, unknown: 0, invalid: 0 };
    const changes = new Map<string, TagRecord>();
    for (const raw of raws) {
      const record = readRecord(raw);
      if (!record) result.invalid++;
      else if (!knows(record.outputKey)) result.unknown++;
      else {
        result.kept++;
        const here = changes.get(record.outputKey) ?? this.byKey.get(record.outputKey);
        const tags = cleanTags([...(here?.tags ?? []), ...record.tags]);
        if (!here || tags.length !== here.tags.length)
          changes.set(record.outputKey, {
            outputKey: record.outputKey,
            tags,
            at: Math.max(record.at, here?.at ?? 0),
          });
      }
    }
    await this.write([...changes.values()]);
    return result;
  }

  /**
   * Its part of the history file: the lists of the outputs the history has (the field is left out when
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
