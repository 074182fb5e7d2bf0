import { z } from 'zod/mini';
import { TEAM_DOC_BOUNDS, TEAM_DOC_SEARCHES } from '../../../contract/team-doc';
import type { HistorySection } from './history-store';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// Saved searches: a name and the search box's text, kept per connection in IndexedDB (store `searches`,
// key [connectionId, id]), this member's. A plain store, as reviews.ts: subscribe/snapshot for
// useSyncExternalStore; every read (database or imported file) is parsed. In a team each is also saved
// to the room's `searches` root under its id, in this member's name (team/team-searches.ts), and the
// team's show for everyone with who saved them (savedSearchesOf).

/** The longest name and the longest query (the team-space contract's bounds). */
export const MAX_SEARCH_NAME = TEAM_DOC_SEARCHES.maxNameLength;
export const MAX_SEARCH_QUERY = TEAM_DOC_SEARCHES.maxQueryLength;

/** Why a search cannot be saved or renamed so. */
type SavedSearchError = 'name-empty' | 'name-too-long' | 'query-too-long' | 'not-found';

const SavedSearchSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(TEAM_DOC_BOUNDS.maxIdLength)),
  name: z.string().check(z.minLength(1), z.maxLength(MAX_SEARCH_NAME)),
  query: z.string().check(z.maxLength(MAX_SEARCH_QUERY)),
  at: z.number().check(z.gte(0)),
});
export type SavedSearch = z.infer<typeof SavedSearchSchema>;

/** A search saved to the team, as the team shows it (team-searches.ts reads them). */
export interface TeamSavedSearch extends SavedSearch {
  /** Who saved it (a member id). */
  by: string;
}

/** A search as the list of saved searches shows it: this member's (`mine`: they may rename or delete it) or another's. */
export interface ListedSearch extends SavedSearch {
  /** Who saved it: a member id in a team, null for this member's own outside one. */
  by: string | null;
  mine: boolean;
}

/** A search's name as typed: trimmed, its white space runs one space each. */
const cleanName = (raw: string): string => raw.trim().replace(/\s+/gu, ' ');

function checkName(name: string): SavedSearchError | null {
  if (name.length === 0) return 'name-empty';
  if (name.length > MAX_SEARCH_NAME) return 'name-too-long';
  return null;
}

export type SavedSearchResult = { ok: true; search: SavedSearch } | { ok: false; error: SavedSearchError };

/** Newest first (ties: by id, so every copy lists them alike). */
const byNewest = (a: SavedSearch, b: SavedSearch): number =>
  b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The saved searches to list: this member's own (`mine`, this device's) and, in a team, everyone else's
 * (`team`, with who saved them; this member's there are the device's, by id, and shown once), newest
 * first.
 */
export function savedSearchesOf(
  mine: readonly SavedSearch[],
  team?: { searches: readonly TeamSavedSearch[]; memberId: string },
): ListedSearch[] {
  const out: ListedSearch[] = mine.map((s) => ({ ...s, by: team?.memberId ?? null, mine: true }));
  if (team) {
    const here = new Set(mine.map((s) => s.id));
    for (const s of team.searches) {
      if (here.has(s.id)) continue;
      out.push({ ...s, mine: s.by === team.memberId });
    }
  }
  return out.sort(byNewest);
}

const EMPTY: readonly SavedSearch[] = [];

export class SavedSearchStore {
  private list_: readonly SavedSearch[] = EMPTY;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly newId: () => string,
    private readonly records: LocalRecords<'searches', SavedSearch>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    {
      now = Date.now,
      newId = () => crypto.randomUUID(),
      ...io
    }: { now?: () => number; newId?: () => string } & LocalIo,
  ): Promise<SavedSearchStore> {
    const records = new LocalRecords('searches', connectionId, SavedSearchSchema, io);
    const store = new SavedSearchStore(connectionId, now, newId, records);
    store.list_ = (await records.load()).sort(byNewest);
    return store;
  }

  subscribe = this.listeners.subscribe;

  /** This member's saved searches, newest first. Immutable: a new array after every change. */
  snapshot = (): readonly SavedSearch[] => this.list_;

  get(id: string): SavedSearch | undefined {
    return this.list_.find((s) => s.id === id);
  }

  /** Writes searches (`remove`: ids taken away) in one transaction; one notification. */
  private async write(put: readonly SavedSearch[], remove: readonly string[] = []) {
    if (put.length === 0 && remove.length === 0) return;
    const gone = new Set([...remove, ...put.map((s) => s.id)]);
    this.list_ = [...this.list_.filter((s) => !gone.has(s.id)), ...put].sort(byNewest);
    this.listeners.notify();
    // Shown at once, so written at once (commitNow).
    await this.records.write([...put.map((s) => ({ put: s })), ...remove.map((id) => ({ remove: id }))]);
  }

  /**
   * Saves the search box's text under a name. A search of this member's with the same name (white space
   * aside) takes the new text: saving again updates it.
   */
  async save(name: string, query: string): Promise<SavedSearchResult> {
    const clean = cleanName(name);
    const error = checkName(clean);
    if (error) return { ok: false, error };
    if (query.length > MAX_SEARCH_QUERY) return { ok: false, error: 'query-too-long' };
    const same = this.list_.find((s) => s.name === clean);
    const search = { id: same?.id ?? this.newId(), name: clean, query, at: this.now() };
    await this.write([search]);
    return { ok: true, search };
  }

  /** Gives a search of this member's another name. */
  async rename(id: string, name: string): Promise<SavedSearchResult> {
    const here = this.get(id);
    if (!here) return { ok: false, error: 'not-found' };
    const clean = cleanName(name);
    const error = checkName(clean);
    if (error) return { ok: false, error };
    if (clean === here.name) return { ok: true, search: here };
    const search = { ...here, name: clean, at: this.now() };
    await this.write([search]);
    return { ok: true, search };
  }

  /** Deletes a search of this member's; false when there is none of that id. */
  async remove(id: string): Promise<boolean> {
    if (!this.get(id)) return false;
    await this.write([], [id]);
    return true;
  }

  /**
   * Keeps a search as it is, with its id and time: the team space's, made on another of this member's
   * devices (team-searches.ts). One that does not parse is left out.
   */
  async put(search: SavedSearch): Promise<void> {
    const parsed = SavedSearchSchema.safeParse(search);
    if (parsed.success) await this.write([parsed.data]);
  }

  /**
   * Adds searches from an imported file, each parsed; one that does not parse is skipped and counted. A
   * search already here (its id) that is as new as the file's, or newer, stays.
   */
  async importMany(raws: readonly unknown[]): Promise<{ kept: number; invalid: number }> {
    const result = { kept: 0, invalid: 0 };
    const put = new Map<string, SavedSearch>();
    for (const raw of raws) {
      const parsed = SavedSearchSchema.safeParse(raw);
      if (!parsed.success) {
        result.invalid++;
        continue;
      }
      result.kept++;
      const here = put.get(parsed.data.id) ?? this.get(parsed.data.id);
      if (!here || here.at < parsed.data.at) put.set(parsed.data.id, parsed.data);
    }
    await this.write([...put.values()]);
    return result;
  }

  /** Its part of the history file: every saved search (the field is left out when there are none). */
  historySection(): HistorySection {
    return {
      export: () => (this.list_.length ? [...this.list_] : undefined),
      import: async (data) => {
        const r = await this.importMany(Array.isArray(data) ? data : []);
        return { kept: r.kept, skipped: r.invalid };
      },
    };
  }
}
