import { z } from 'zod/mini';
import { cleanTags, type MemberTags, type MembersTags, type TagRecord } from '../history/tags';
import { MemberRecords, mirrorMine, type RecordsSpec } from './member-records';
import { ROOTS, type TeamContext } from './team-doc';
import { OPEN_GATE, type ShareGate } from './team-share';

// Tags in the team space (docs/team-space.md "Judgements and comments"): each member's tags of an output
// are theirs, under `${memberId}|${outputKey}` in the `tags` root (the key's shape is the judgements'), a
// plain value `{ tags, at }`: the last write wins. The server refuses a list written or removed under
// another member's key, and one past the contract's bounds; this module only ever writes under this
// member's. The root is schema version 5's: a room's server of an older version would refuse it as
// unknown, so there the tags stay on this device. The Gallery and the search keep using the local
// TagStore (with everyone's tags joined by tagsByOutput); bridge mirrors this member's tags into the
// document and back (another of their devices changes them too). Reading, writing and mirroring are
// member-records.ts's; this module says what a list of tags is.

/** One member's tags of one output, as the document holds them (the tags cleaned as they are read). */
const TeamTagsSchema = z.object({
  tags: z.array(z.unknown()),
  at: z.number().check(z.gte(0)),
});

const TAGS: RecordsSpec<typeof TeamTagsSchema, MemberTags> = {
  root: ROOTS.tags,
  // The `tags` root came with schema version 5.
  keptFrom: 5,
  keyed: 'member',
  schema: TeamTagsSchema,
  // Tags not in their kept form are dropped; a list with none left is not shown.
  record: ({ tags, at }, { memberId }) => {
    const clean = cleanTags(tags);
    return clean.length ? { memberId, tags: clean, at } : null;
  },
};

type TagsValue = { tags: readonly string[]; at: number };

const same = (a: TagsValue | undefined, b: TagsValue | undefined): boolean =>
  a === b ||
  (!!a && !!b && a.at === b.at && a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags[i]));

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
  private readonly records: MemberRecords<typeof TeamTagsSchema, MemberTags>;
  readonly subscribe: (listener: () => void) => () => void;

  constructor(
    private readonly ctx: TeamContext,
    gate: ShareGate = OPEN_GATE,
  ) {
    this.records = new MemberRecords(ctx, gate, TAGS);
    this.subscribe = this.records.subscribe;
  }

  destroy(): void {
    this.records.destroy();
  }

  /** Everyone's tags, by output key, the newest list first. Immutable: a new Map after each change. */
  snapshot = (): MembersTags => this.records.bySubject();

  /** One member's tags of one output, as the document holds them (cleaned). */
  get(memberId: string, outputKey: string): MemberTags | undefined {
    return this.records.get(outputKey, memberId);
  }

  /** This member's tags, by output key. */
  mine(): Map<string, MemberTags> {
    return this.records.mine();
  }

  /** Whether tags are shared in this room (its server keeps them); else they stay on the device. */
  shared(): boolean {
    return this.records.shared();
  }

  /**
   * Writes this member's lists (an empty one is taken away), as one transaction, always under this
   * member's own key, each cleaned to the contract's bounds. False, and nothing written, in a room whose
   * server does not keep tags.
   */
  setMine(changes: readonly TagsChange[]): boolean {
    return this.records.write(
      changes.map(({ outputKey, tags, at }) => {
        const clean = cleanTags(tags ?? []);
        return { subject: outputKey, value: clean.length ? { tags: clean, at: at ?? this.ctx.now() } : null };
      }),
    );
  }

  /**
   * Mirrors the local TagStore of this member into the document and back (member-records.ts mirrorMine):
   * tags added or removed in the Gallery or the Viewer go to the team, a list from another of this
   * member's devices comes back with its time. Returns the function that stops it.
   */
  bridge(local: LocalTags, options: { shareExisting?: boolean } = {}): () => void {
    return mirrorMine(
      this.records,
      this.ctx,
      {
        local: () => local.records(),
        subscribe: (listener) => local.subscribe(listener),
        same,
        toLocal: (outputKey, there) =>
          void local.setTags(outputKey, there?.tags ?? [], there?.at ?? this.ctx.now()),
        change: (outputKey, here): TagsChange =>
          here ? { outputKey, tags: here.tags, at: here.at } : { outputKey, tags: null },
        write: (changes) => this.setMine(changes),
      },
      options,
    );
  }
}

/** What the bridge needs of the local TagStore (model/history/tags.ts). */
export interface LocalTags {
  subscribe(listener: () => void): () => void;
  /** This member's lists with their times; a new Map after every change. */
  records(): ReadonlyMap<string, TagRecord>;
  setTags(outputKey: string, tags: readonly string[], at: number): Promise<void>;
}
