import { z } from 'zod/mini';
import type { HistorySection } from '../history/history-store';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// The prompt library (product-notes §3 "Presets, batches, prompt library"): every prompt sent with this key,
// kept once (the same text sent again only counts another use), searchable, with favourites pinned.
// Per connection, in IndexedDB; reads are parsed, never trusted.

/** api-notes §4: a prompt is at most 10,000 characters; anything longer is not a prompt that was sent. */
export const PROMPT_CAP = 10_000;

export const PromptRecordSchema = z.object({
  connectionId: z.string().check(z.minLength(1)),
  text: z.string().check(z.minLength(1), z.maxLength(PROMPT_CAP)),
  firstUsedAt: z.number(),
  lastUsedAt: z.number(),
  uses: z.catch(z.int().check(z.positive()), 1),
  pinned: z.catch(z.boolean(), false),
});
export type PromptRecord = z.infer<typeof PromptRecordSchema>;
export type PortablePrompt = Omit<PromptRecord, 'connectionId'>;

/** The text as it is kept: trimmed; the same prompt with other surrounding spaces is one entry. */
export const promptKey = (text: string): string => text.trim();

/** Pinned first, then the most recently used. */
const order = (a: PromptRecord, b: PromptRecord) =>
  Number(b.pinned) - Number(a.pinned) || b.lastUsedAt - a.lastUsedAt;

/** Whether the prompt holds every word of the query, in any order and case. */
export function matchesQuery(text: string, query: string): boolean {
  const haystack = text.toLocaleLowerCase();
  return query
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export class PromptLibrary {
  private readonly byText = new Map<string, PromptRecord>();
  private sorted: PromptRecord[] | null = null;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly stored: LocalRecords<'prompts', PromptRecord>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    { now = Date.now, ...io }: { now?: () => number } & LocalIo,
  ): Promise<PromptLibrary> {
    const stored = new LocalRecords('prompts', connectionId, PromptRecordSchema, io);
    const library = new PromptLibrary(connectionId, now, stored);
    try {
      for (const record of await stored.load()) {
        if (record.connectionId === connectionId) library.byText.set(record.text, record);
      }
    } catch {
      // IndexedDB unavailable: the library still works in this tab.
    }
    return library;
  }

  subscribe = this.listeners.subscribe;

  /** Every prompt, pinned first, then newest; the same array until something changes. */
  list = (): PromptRecord[] => {
    this.sorted ??= [...this.byText.values()].sort(order);
    return this.sorted;
  };

  search(query: string): PromptRecord[] {
    return query.trim() ? this.list().filter((r) => matchesQuery(r.text, query)) : this.list();
  }

  /** The prompt sent last (ArrowUp in an empty prompt brings it back). */
  last(): string | undefined {
    let best: PromptRecord | undefined;
    for (const r of this.byText.values()) if (!best || r.lastUsedAt > best.lastUsedAt) best = r;
    return best?.text;
  }

  private changed(): void {
    this.sorted = null;
    this.listeners.notify();
  }

  private async persist(records: PromptRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      // Written at once: a reload right after a pin keeps it (commitNow).
      await this.stored.write(records.map((r) => ({ put: r })));
    } catch {
      // Told to the reporter the library was opened with; kept in memory for this tab.
    }
  }

  /** Prompts just sent (a batch sends several): each kept once, its use counted. */
  async record(texts: readonly string[]): Promise<void> {
    const at = this.now();
    const touched = new Map<string, PromptRecord>();
    for (const raw of texts) {
      const text = promptKey(raw);
      if (!text || text.length > PROMPT_CAP) continue;
      const known = touched.get(text) ?? this.byText.get(text);
      const next: PromptRecord = known
        ? { ...known, lastUsedAt: at, uses: known.uses + 1 }
        : { connectionId: this.connectionId, text, firstUsedAt: at, lastUsedAt: at, uses: 1, pinned: false };
      touched.set(text, next);
      this.byText.set(text, next);
    }
    if (touched.size === 0) return;
    this.changed();
    await this.persist([...touched.values()]);
  }

  async pin(text: string, pinned: boolean): Promise<void> {
    const known = this.byText.get(text);
    if (!known || known.pinned === pinned) return;
    const next = { ...known, pinned };
    this.byText.set(text, next);
    this.changed();
    await this.persist([next]);
  }

  /** Deletes a prompt; returns it as it was, for `restore` (an "Undo"). */
  async remove(text: string): Promise<PromptRecord | undefined> {
    const removed = this.byText.get(text);
    if (!removed) return undefined;
    this.byText.delete(text);
    this.changed();
    try {
      await this.stored.write([{ remove: text }]);
    } catch {
      // See persist.
    }
    return removed;
  }

  /** Puts back a prompt `remove` returned, with its uses, dates and pin; one used since is left as it is. */
  async restore(record: PromptRecord): Promise<void> {
    if (this.byText.has(record.text)) return;
    const next = { ...record, connectionId: this.connectionId };
    this.byText.set(next.text, next);
    this.changed();
    await this.persist([next]);
  }

  /** The library as it leaves this device (the history export): no connection. */
  portable(): PortablePrompt[] {
    return this.list().map(({ connectionId: _c, ...rest }) => rest);
  }

  /**
   * Adds prompts from an export; a prompt already here keeps the later use, the sum of uses and a pin
   * from either side. Unreadable items are skipped and counted.
   */
  async importPortable(items: readonly unknown[]): Promise<{ added: number; skipped: number }> {
    const result = { added: 0, skipped: 0 };
    const merged: PromptRecord[] = [];
    for (const raw of items) {
      const parsed = PromptRecordSchema.safeParse({
        ...(typeof raw === 'object' && raw ? raw : {}),
        connectionId: this.connectionId,
      });
      if (!parsed.success || !promptKey(parsed.data.text)) {
        result.skipped++;
        continue;
      }
      const incoming = { ...parsed.data, text: promptKey(parsed.data.text) };
      const known = this.byText.get(incoming.text);
      const next: PromptRecord = known
        ? {
            ...known,
            firstUsedAt: Math.min(known.firstUsedAt, incoming.firstUsedAt),
            lastUsedAt: Math.max(known.lastUsedAt, incoming.lastUsedAt),
            uses: known.uses + incoming.uses,
            pinned: known.pinned || incoming.pinned,
          }
        : incoming;
      this.byText.set(next.text, next);
      merged.push(next);
      result.added++;
    }
    if (merged.length) this.changed();
    await this.persist(merged);
    return result;
  }

  /** Its part of the history file (history-store's HistorySection). */
  historySection(): HistorySection {
    return {
      export: () => this.portable(),
      import: async (data) => {
        const { added, skipped } = await this.importPortable(Array.isArray(data) ? data : []);
        return { kept: added, skipped };
      },
    };
  }
}
