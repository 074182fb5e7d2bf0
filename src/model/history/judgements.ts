import { z } from 'zod/mini';
import type { HistorySection } from './history-store';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// Star and 1-5 rating per output (product-notes §3 "Gallery and viewer"), kept per connection in IndexedDB
// (store `judgements`, key [connectionId, outputKey], outputKey `${taskId}#${index}`). A plain store:
// subscribe/snapshot for useSyncExternalStore; every read (database or imported file) is parsed.

const RatingSchema = z.int().check(z.gte(1), z.lte(5));

/** One output's judgement as kept and as exported (without the connection). */
const JudgementSchema = z.object({
  outputKey: z.string().check(z.regex(/^.+#\d+$/)),
  starred: z._default(z.boolean(), false),
  rating: z._default(z.nullable(RatingSchema), null),
  updatedAt: z._default(z.number(), 0),
});
export type Judgement = z.infer<typeof JudgementSchema>;

export type Judgements = ReadonlyMap<string, Judgement>;

const EMPTY: Judgements = new Map();

const isBlank = (j: Judgement) => !j.starred && j.rating === null;

export class JudgementStore {
  private map: Judgements = EMPTY;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly records: LocalRecords<'judgements', Judgement>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    { now = Date.now, ...io }: { now?: () => number } & LocalIo,
  ): Promise<JudgementStore> {
    const records = new LocalRecords('judgements', connectionId, JudgementSchema, io);
    const store = new JudgementStore(connectionId, now, records);
    const next = new Map<string, Judgement>();
    for (const judgement of await records.load()) {
      if (!isBlank(judgement)) next.set(judgement.outputKey, judgement);
    }
    store.map = next;
    return store;
  }

  subscribe = this.listeners.subscribe;

  /** Immutable: a new Map after every change. */
  snapshot = (): Judgements => this.map;

  get(outputKey: string): Judgement | undefined {
    return this.map.get(outputKey);
  }

  /** Writes the changes of many outputs in one transaction; a judgement left blank is deleted. */
  private async write(changes: Array<{ outputKey: string; starred?: boolean; rating?: number | null }>) {
    if (changes.length === 0) return;
    const next = new Map(this.map);
    const at = this.now();
    const written: Judgement[] = [];
    for (const change of changes) {
      const before = next.get(change.outputKey);
      const judgement: Judgement = {
        outputKey: change.outputKey,
        starred: change.starred ?? before?.starred ?? false,
        rating: change.rating === undefined ? (before?.rating ?? null) : change.rating,
        updatedAt: at,
      };
      if (isBlank(judgement)) next.delete(change.outputKey);
      else next.set(change.outputKey, judgement);
      written.push(judgement);
    }
    this.map = next;
    this.listeners.notify();
    // Shown at once, so written at once: a reload right after the click keeps it (commitNow).
    await this.records.write(written.map((j) => (isBlank(j) ? { remove: j.outputKey } : { put: j })));
  }

  setStarred(outputKeys: readonly string[], starred: boolean): Promise<void> {
    return this.write(outputKeys.map((outputKey) => ({ outputKey, starred })));
  }

  toggleStar(outputKey: string): Promise<void> {
    return this.setStarred([outputKey], !this.map.get(outputKey)?.starred);
  }

  /**
   * Star and rating of one output at once (one change, one notification): how the team space hands a
   * judgement made on another of this member's devices back to this one (team-judgements.ts).
   */
  set(outputKey: string, judgement: { starred: boolean; rating: number | null }): Promise<void> {
    if (judgement.rating !== null) RatingSchema.parse(judgement.rating);
    return this.write([{ outputKey, ...judgement }]);
  }

  /** A rating of 1-5, or null to clear it. */
  async setRating(outputKey: string, rating: number | null): Promise<void> {
    if (rating !== null) RatingSchema.parse(rating);
    await this.write([{ outputKey, rating }]);
  }

  /** For the history export: every judgement, without the connection. */
  list(): Judgement[] {
    return [...this.map.values()];
  }

  /**
   * Adds judgements from an imported file. Each is parsed; one whose output the history does not know
   * (`knows` says no) is skipped and counted, as is one that does not parse.
   */
  async importMany(
    raws: readonly unknown[],
    knows: (outputKey: string) => boolean,
  ): Promise<{ kept: number; unknown: number; invalid: number }> {
    const result = { kept: 0, unknown: 0, invalid: 0 };
    const changes: Judgement[] = [];
    for (const raw of raws) {
      const parsed = JudgementSchema.safeParse(raw);
      if (!parsed.success) result.invalid++;
      else if (!knows(parsed.data.outputKey)) result.unknown++;
      else {
        result.kept++;
        changes.push(parsed.data);
      }
    }
    await this.write(changes);
    return result;
  }

  /**
   * Its part of the history file: the stars and ratings of the outputs the history has (the field is
   * left out when there are none); on import, those of outputs the history has once the tasks are in.
   */
  historySection(): HistorySection {
    return {
      export: (history) => {
        const kept = this.list().filter((j) => history.hasOutput(j.outputKey));
        return kept.length ? kept : undefined;
      },
      import: async (data, history) => {
        const raws = Array.isArray(data) ? data : [];
        const j = await this.importMany(raws, (key) => history.hasOutput(key));
        return { kept: j.kept, skipped: j.unknown + j.invalid };
      },
    };
  }
}
