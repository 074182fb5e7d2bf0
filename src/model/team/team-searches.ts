import { z } from 'zod/mini';
import {
  MAX_SEARCH_NAME,
  MAX_SEARCH_QUERY,
  type SavedSearch,
  type TeamSavedSearch,
} from '../history/saved-searches';
import { MemberRecords, mirrorMine, type RecordsSpec } from './member-records';
import { ROOTS, type TeamContext } from './team-doc';
import { OPEN_GATE, type ShareGate } from './team-share';

// Saved searches in the team space (docs/team-space.md "Judgements and comments"): each member's saved
// searches go to the `searches` root under their ids, `{ name, query, by, at }`, and show for everyone with
// who saved them. Anyone saves one, in their own name; only its author renames or deletes it (the server
// refuses anyone else's change, as it does a preset's: contract/team-doc.ts ownerOf). The root is schema
// version 5's: a room's server of an older version would refuse it as unknown, so there the searches stay
// on this device. The list keeps using the local SavedSearchStore (with the team's joined by
// savedSearchesOf); bridge mirrors this member's into the document and back (another of their devices
// changes them too). Reading, writing and mirroring are member-records.ts's; this module says what a saved
// search is.

const TeamSearchSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_SEARCH_NAME)),
  query: z.string().check(z.maxLength(MAX_SEARCH_QUERY)),
  by: z.string(),
  at: z.number().check(z.gte(0)),
});

const SEARCHES: RecordsSpec<typeof TeamSearchSchema, TeamSavedSearch> = {
  root: ROOTS.searches,
  // The `searches` root came with schema version 5.
  keptFrom: 5,
  keyed: 'id',
  schema: TeamSearchSchema,
  record: (search, { subject }) => ({ id: subject, ...search }),
};

const same = (a: SavedSearch | undefined, b: SavedSearch | undefined): boolean =>
  a === b || (!!a && !!b && a.name === b.name && a.query === b.query && a.at === b.at);

/** A change of one of this member's saved searches: the search, or null to delete it. */
export interface SearchChange {
  id: string;
  search: Omit<SavedSearch, 'id'> | null;
}

/**
 * Everyone's saved searches in the room, and this member's writes. Constructed from the TeamContext (the
 * TeamSpace handle): it observes the `searches` root from then on; `destroy` stops it.
 */
export class TeamSearches {
  private readonly records: MemberRecords<typeof TeamSearchSchema, TeamSavedSearch>;
  readonly subscribe: (listener: () => void) => () => void;

  constructor(
    private readonly ctx: TeamContext,
    gate: ShareGate = OPEN_GATE,
  ) {
    this.records = new MemberRecords(ctx, gate, SEARCHES);
    this.subscribe = this.records.subscribe;
  }

  destroy(): void {
    this.records.destroy();
  }

  /** Everyone's saved searches, with who saved each, newest first. Immutable: a new array after each change. */
  snapshot = (): readonly TeamSavedSearch[] => this.records.list();

  get(id: string): TeamSavedSearch | undefined {
    return this.records.at(id);
  }

  /** This member's saved searches in the room, by id. */
  mine(): Map<string, TeamSavedSearch> {
    return this.records.mine();
  }

  /** Whether saved searches are shared in this room (its server keeps them); else they stay on the device. */
  shared(): boolean {
    return this.records.shared();
  }

  /**
   * Writes this member's saved searches (a null one is deleted), as one transaction, each in this
   * member's name. An id the room holds in another member's name is left alone (the server would refuse
   * the change). False, and nothing written, in a room whose server does not keep saved searches.
   */
  setMine(changes: readonly SearchChange[]): boolean {
    return this.records.write(
      changes.map(({ id, search }) => ({
        subject: id,
        value: search && { name: search.name, query: search.query, by: this.ctx.memberId, at: search.at },
      })),
    );
  }

  /**
   * Mirrors the local SavedSearchStore of this member into the document and back (member-records.ts
   * mirrorMine): a search saved, renamed or deleted here goes to the team in this member's name, one from
   * another of this member's devices is kept here with its time; another member's shows from the team's
   * list only. Returns the function that stops it.
   */
  bridge(local: LocalSearches, options: { shareExisting?: boolean } = {}): () => void {
    let list: readonly SavedSearch[] | null = null;
    let byId: ReadonlyMap<string, SavedSearch> = new Map();
    return mirrorMine(
      this.records,
      this.ctx,
      {
        // By id, the same Map until the list changes (the mirror tells a change by it).
        local: () => {
          const next = local.snapshot();
          if (next !== list) byId = new Map((list = next).map((s) => [s.id, s]));
          return byId;
        },
        subscribe: (listener) => local.subscribe(listener),
        same,
        toLocal: (id, there) =>
          void (there
            ? local.put({ id, name: there.name, query: there.query, at: there.at })
            : local.remove(id)),
        change: (id, here): SearchChange => ({
          id,
          search: here ? { name: here.name, query: here.query, at: here.at } : null,
        }),
        write: (changes) => this.setMine(changes),
      },
      options,
    );
  }
}

/** What the bridge needs of the local SavedSearchStore (model/history/saved-searches.ts). */
export interface LocalSearches {
  subscribe(listener: () => void): () => void;
  snapshot(): readonly SavedSearch[];
  put(search: SavedSearch): Promise<void>;
  remove(id: string): Promise<unknown>;
}
