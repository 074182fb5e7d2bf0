import { acceptedRecord, schemaVersionOf } from '../../../contract/team-doc';
import { z } from 'zod/mini';
import type * as Y from 'yjs';
import {
  MAX_SEARCH_NAME,
  MAX_SEARCH_QUERY,
  type SavedSearch,
  type TeamSavedSearch,
} from '../history/saved-searches';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { OPEN_GATE, ownerNow, sizeOf, type ShareGate } from './team-share';
import { Listeners } from '../../lib/store';

// Saved searches in the team space (docs/team-space.md "Judgements and comments"): each member's saved
// searches go to the `searches` root under their ids, `{ name, query, by, at }`, and show for everyone with
// who saved them. Anyone saves one, in their own name; only its author renames or deletes it (the server
// refuses anyone else's change, as it does a preset's: contract/team-doc.ts ownerOf). The root is schema
// version 5's: a room's server of an older version would refuse it as unknown, so there the searches stay
// on this device. The list keeps using the local SavedSearchStore (with the team's joined by
// savedSearchesOf); bridgeSearches mirrors this member's into the document and back (another of their
// devices changes them too).

const TeamSearchSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_SEARCH_NAME)),
  query: z.string().check(z.maxLength(MAX_SEARCH_QUERY)),
  by: z.string(),
  at: z.number().check(z.gte(0)),
});

/** Whether the room's server keeps saved searches (the `searches` root came with schema version 5). */
const keepsSearches = (doc: Y.Doc): boolean => schemaVersionOf(doc) >= 5;

const same = (a: SavedSearch | undefined, b: SavedSearch | undefined): boolean =>
  a === b || (!!a && !!b && a.name === b.name && a.query === b.query && a.at === b.at);

const byNewest = (a: TeamSavedSearch, b: TeamSavedSearch): number =>
  b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

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
  private readonly map: Y.Map<unknown>;
  private readonly byId = new Map<string, TeamSavedSearch>();
  private view: readonly TeamSavedSearch[] = [];
  private readonly listeners = new Listeners();

  constructor(
    private readonly ctx: TeamContext,
    private readonly gate: ShareGate = OPEN_GATE,
  ) {
    this.map = rootMap(ctx.doc, ROOTS.searches);
    for (const id of this.map.keys()) this.read(id);
    this.view = [...this.byId.values()].sort(byNewest);
    this.map.observe(this.onChange);
  }

  destroy(): void {
    this.map.unobserve(this.onChange);
    this.listeners.clear();
  }

  subscribe = this.listeners.subscribe;

  /** Everyone's saved searches, with who saved each, newest first. Immutable: a new array after each change. */
  snapshot = (): readonly TeamSavedSearch[] => this.view;

  get(id: string): TeamSavedSearch | undefined {
    return this.byId.get(id);
  }

  /** This member's saved searches in the room, by id. */
  mine(): Map<string, TeamSavedSearch> {
    const out = new Map<string, TeamSavedSearch>();
    for (const [id, s] of this.byId) if (s.by === this.ctx.memberId) out.set(id, s);
    return out;
  }

  /** Whether saved searches are shared in this room (its server keeps them); else they stay on the device. */
  shared(): boolean {
    return keepsSearches(this.ctx.doc);
  }

  /**
   * Writes this member's saved searches (a null one is deleted), as one transaction, each in this
   * member's name. An id the room holds in another member's name is left alone (the server would refuse
   * the change). False, and nothing written, in a room whose server does not keep saved searches.
   */
  setMine(changes: readonly SearchChange[]): boolean {
    if (!this.shared()) return false;
    let bytes = 0;
    const kept: Array<{ id: string; value: Omit<TeamSavedSearch, 'id'> | null }> = [];
    for (const { id, search } of changes) {
      const owner = ownerNow(this.ctx.doc, ROOTS.searches, id);
      if (owner !== undefined && owner !== this.ctx.memberId) continue;
      if (!search) {
        if (owner !== undefined) kept.push({ id, value: null });
        continue;
      }
      const value = { name: search.name, query: search.query, by: this.ctx.memberId, at: search.at };
      if (!acceptedRecord('searches', id, value)) continue;
      // Past this member's share of the room the server refuses any growing change: the search stays on
      // this device.
      bytes += sizeOf(id, value);
      if (this.gate.allows(bytes)) kept.push({ id, value });
    }
    if (kept.length === 0) return true;
    this.ctx.transact(() => {
      for (const { id, value } of kept) {
        if (value) this.map.set(id, value);
        else this.map.delete(id);
      }
    });
    return true;
  }

  /** Mirrors the local SavedSearchStore of this member into the document and back (bridgeSearches). */
  bridge(local: LocalSearches, options: { shareExisting?: boolean } = {}): () => void {
    return bridgeSearches(this, this.ctx, local, options);
  }

  private read(id: string): void {
    const raw = this.map.get(id);
    const parsed =
      raw === undefined || !acceptedRecord('searches', id, raw) ? null : TeamSearchSchema.safeParse(raw);
    // Deleted, or a value that does not parse (another studio's or a hostile client's): not shown.
    if (parsed?.success) this.byId.set(id, { id, ...parsed.data });
    else this.byId.delete(id);
  }

  private onChange = (event: Y.YMapEvent<unknown>) => {
    for (const id of event.keysChanged) this.read(id);
    this.view = [...this.byId.values()].sort(byNewest);
    this.listeners.notify();
  };
}

/** What the bridge needs of the local SavedSearchStore (model/history/saved-searches.ts). */
export interface LocalSearches {
  subscribe(listener: () => void): () => void;
  snapshot(): readonly SavedSearch[];
  put(search: SavedSearch): Promise<void>;
  remove(id: string): Promise<unknown>;
}

const byIdOf = (list: readonly SavedSearch[]): Map<string, SavedSearch> =>
  new Map(list.map((s) => [s.id, s]));

const plain = ({ id: _id, by: _by, ...rest }: TeamSavedSearch): Omit<SavedSearch, 'id'> => rest;

/**
 * Mirrors the local SavedSearchStore of this member into the document and back: a search saved, renamed
 * or deleted here is written in this member's name; one that arrives from another of this member's
 * devices (the same member id) is kept in the local store with its time. Where both hold a search when
 * the bridge starts, the newer one (`at`) wins; what only this device holds goes to the team when
 * `shareExisting` says so (docs/team-space.md: what is already on a device is shared only when the member
 * says so). In a room that keeps no saved searches nothing is written there. Returns the function that
 * stops it.
 */
function bridgeSearches(
  team: TeamSearches,
  ctx: TeamContext,
  local: LocalSearches,
  options: { shareExisting?: boolean },
): () => void {
  const docMap = rootMap(ctx.doc, ROOTS.searches);
  const inDoc = (id: string): TeamSavedSearch | undefined => {
    const s = team.get(id);
    return s?.by === ctx.memberId ? s : undefined;
  };
  const toLocal = (id: string, there: TeamSavedSearch | undefined) =>
    void (there ? local.put({ id, ...plain(there) }) : local.remove(id));
  const change = (here: SavedSearch): SearchChange => ({
    id: here.id,
    search: { name: here.name, query: here.query, at: here.at },
  });

  const since = ctx.now();
  const start = byIdOf(local.snapshot());
  const mine = team.mine();
  const toDoc: SearchChange[] = [];
  for (const [id, there] of mine) {
    const here = start.get(id);
    if (same(here, there)) continue;
    // A search newer here (a change the server never got) goes there, not the older one back.
    if (here && here.at > there.at) toDoc.push(change(here));
    else toLocal(id, there);
  }
  if (options.shareExisting) {
    for (const [id, here] of start) if (!mine.has(id)) toDoc.push(change(here));
  }
  team.setMine(toDoc);

  let previous = local.snapshot();
  const offLocal = local.subscribe(() => {
    const list = local.snapshot();
    if (list === previous) return;
    const before = byIdOf(previous);
    const next = byIdOf(list);
    const changes: SearchChange[] = [];
    for (const [id, here] of next) {
      if (before.get(id) !== here && !same(inDoc(id), here)) changes.push(change(here));
    }
    for (const id of before.keys()) {
      if (!next.has(id) && inDoc(id)) changes.push({ id, search: null });
    }
    previous = list;
    team.setMine(changes);
  });

  // Back: this member's searches changed by anyone but this handle (another device of the same member,
  // synced in). The store has read the change already (it observed first).
  const onDoc = (event: Y.YMapEvent<unknown>) => {
    if (event.transaction.origin === ctx.origin) return;
    const here = byIdOf(local.snapshot());
    for (const id of event.keysChanged) {
      const there = inDoc(id);
      // Another member's search: theirs, shown from the team's list, never kept on this device.
      if (!there && !here.has(id)) continue;
      if (!there && team.get(id)) continue;
      if (!same(there, here.get(id))) toLocal(id, there);
    }
  };
  docMap.observe(onDoc);

  // The room's version may arrive after the bridge started: once the room keeps saved searches, what this
  // member saved meanwhile (and, when shared, before) goes there too.
  const meta = rootMap(ctx.doc, ROOTS.meta);
  let shared = team.shared();
  const onMeta = () => {
    if (shared || !(shared = team.shared())) return;
    const changes: SearchChange[] = [];
    for (const here of local.snapshot()) {
      const there = inDoc(here.id);
      if (same(there, here) || (there && there.at >= here.at)) continue;
      if (options.shareExisting || here.at >= since) changes.push(change(here));
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
