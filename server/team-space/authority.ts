import { OutgoingMessage, type Connection, type Document, type Extension } from '@hocuspocus/server';
import * as Y from 'yjs';
import {
  isTeamDocRoot,
  memberShareBytes,
  fieldsOf,
  type Fields,
  migrateTeamDoc,
  outOfBounds,
  ownerOf,
  shareOf,
  rootNode,
  schemaVersionOf,
  TEAM_DOC_BOUNDS,
  TEAM_DOC_VERSION,
  type DocNode,
  type TeamDocRoot,
  type Who,
} from '../../contract/team-doc';
import { TEAM_SPACE_CLOSE_CODES, type TeamSpaceReason } from '../../contract/team-room';
import { updateOf } from './messages';

// The server as referee (docs/team-space.md "What the server enforces"). Every update a member sends is
// read against the room's current state before Hocuspocus applies it: each new item's place in the
// document (a root, a key, the keys above it) is found from its parent or, when Yjs left that out, from
// the item it was inserted next to; each deletion is found in the room. Then the contract
// (contract/team-doc.ts) says whether that place exists, whether the value fits it, and whether this
// writer may write there. One item the writer may not write, and the whole update is refused: nothing of
// it touches the room, and the writer's connection to the room is closed with the reason.
//
// Updates are decoded with Yjs's own decoder (the format is Yjs's), never applied to a copy: the room is
// only read. An update that needs changes the server does not hold (a gap in a client's clocks, a deletion
// of what does not exist yet) is refused too: Yjs would keep it pending and apply it later, unchecked.

export type ChangeRefusal = Extract<
  TeamSpaceReason,
  'not-yours' | 'unknown-field' | 'invalid-value' | 'server-only' | 'out-of-order' | 'share-full'
>;

export type Review = { ok: true; grows: boolean } | { ok: false; reason: ChangeRefusal; detail: string };

/** Where an item sits: the type it is in (a root by name, or the item that holds the type) and its key. */
interface Place {
  container: { root: string } | { item: Y.ID };
  sub: string | null;
}

type Struct = Y.Item | Y.GC | Y.Skip;

/** A place Yjs cannot integrate anywhere (next to collected garbage): the content goes nowhere. */
const NOWHERE = 'nowhere';
const MAX_PATH = 8;

class Refused extends Error {
  constructor(
    readonly reason: ChangeRefusal,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

const fail = (reason: ChangeRefusal, detail: string): never => {
  throw new Refused(reason, detail);
};

/** Client-sent text in a detail line: quoted, escaped, cut. */
const quote = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

const containerId = (c: Place['container']): string =>
  'root' in c ? c.root : `${c.item.client}:${c.item.clock}`;

const isId = (v: unknown): v is Y.ID =>
  typeof v === 'object' && v !== null && 'client' in v && 'clock' in v && !(v instanceof Y.AbstractType);

const kindOf = (type: unknown): 'map' | 'array' | 'text' | null => {
  const c = (type as { constructor?: unknown } | null)?.constructor;
  return c === Y.Map ? 'map' : c === Y.Array ? 'array' : c === Y.Text ? 'text' : null;
};

/** The JSON a doc's type or value reads as (a Y.Map record as its entries). */
const asJson = (v: unknown): unknown => (v instanceof Y.AbstractType ? v.toJSON() : v);

/**
 * Reads one update against the room: answers whether `writer` may apply it. Never throws for what a
 * client sends; never changes `doc`.
 */
export function reviewUpdate(doc: Y.Doc, update: Uint8Array, writer: string): Review {
  try {
    return new UpdateReview(doc, update, writer).run();
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: e.reason, detail: e.detail };
    // Yjs's decoder failed (a broken update, or a value nested deep enough to exhaust its stack).
    return { ok: false, reason: 'invalid-value', detail: `unreadable update (${(e as Error).name})` };
  }
}

class UpdateReview {
  /** The update's structs the room does not have yet, per client, in clock order. */
  private readonly fresh = new Map<number, Struct[]>();
  private readonly freshSet = new Set<Struct>();
  /** What the update writes at the top of each record, and into each map it names (built once, on demand). */
  private writes: {
    records: Map<string, Y.Item>;
    into: Map<string, Map<string, unknown>>;
    /** Every key the update sets (not removes), by its map: `${map}\u0000${key}`. */
    keys: Set<string>;
  } | null = null;
  private readonly deleteSet: ReturnType<typeof Y.decodeUpdate>['ds'];
  private readonly places = new Map<Struct, Place | typeof NOWHERE>();
  /** Records whose owner has been checked, by root and key (each once per update). */
  private readonly ownerChecked = new Set<string>();
  /** Per array or text: elements or characters this update adds. */
  private readonly added = new Map<string, number>();
  private grows = false;

  constructor(
    private readonly doc: Y.Doc,
    update: Uint8Array,
    private readonly writer: string,
  ) {
    const { structs, ds } = Y.decodeUpdate(update);
    this.deleteSet = ds;
    for (const s of structs) {
      const state = Y.getState(doc.store, s.id.client);
      if (s.id.clock + s.length <= state) continue; // the room has it: Yjs skips it
      if (s instanceof Y.Skip) fail('out-of-order', 'the update has a gap');
      let list = this.fresh.get(s.id.client);
      if (!list) this.fresh.set(s.id.client, (list = []));
      list.push(s);
      this.freshSet.add(s);
    }
    for (const [client, list] of this.fresh) {
      if (list[0]!.id.clock > Y.getState(doc.store, client)) {
        fail('out-of-order', 'it continues changes the server never received');
      }
    }
  }

  run(): Review {
    for (const list of this.fresh.values()) for (const s of list) if (s instanceof Y.Item) this.checkItem(s);
    this.checkDeletions();
    return { ok: true, grows: this.grows };
  }

  // ---- finding places -------------------------------------------------------------------------------

  /** The struct holding `id`: one of the update's new ones, or the room's; undefined when neither has it. */
  private find(id: Y.ID): Struct | undefined {
    const list = this.fresh.get(id.client);
    if (list) {
      let lo = 0;
      let hi = list.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const s = list[mid]!;
        if (id.clock < s.id.clock) hi = mid - 1;
        else if (id.clock >= s.id.clock + s.length) lo = mid + 1;
        else return s;
      }
    }
    if (id.clock >= Y.getState(this.doc.store, id.client)) return undefined;
    const structs = this.doc.store.clients.get(id.client);
    if (!structs) return undefined;
    return structs[Y.findIndexSS(structs, id.clock)];
  }

  private isFresh(s: Struct): boolean {
    return this.freshSet.has(s);
  }

  /** The root's map in the room (a root the room only knows from an update is made a Y.Map here). */
  private rootMap(root: TeamDocRoot): Y.Map<unknown> {
    return this.doc.getMap(root);
  }

  private indexWrites(): NonNullable<UpdateReview['writes']> {
    if (this.writes) return this.writes;
    const records = new Map<string, Y.Item>();
    const into = new Map<string, Map<string, unknown>>();
    const keys = new Set<string>();
    for (const s of this.freshSet) {
      if (!(s instanceof Y.Item)) continue;
      const place = this.placeOf(s);
      if (place === NOWHERE || place.sub === null) continue;
      if (!(s.content instanceof Y.ContentDeleted))
        keys.add(`${containerId(place.container)}\u0000${place.sub}`);
      if ('root' in place.container) {
        if (s.content instanceof Y.ContentType) records.set(`${place.container.root}\u0000${place.sub}`, s);
      } else if (s.content instanceof Y.ContentAny) {
        const id = `${place.container.item.client}:${place.container.item.clock}`;
        let fields = into.get(id);
        if (!fields) into.set(id, (fields = new Map()));
        fields.set(place.sub, s.content.arr.at(-1));
      }
    }
    return (this.writes = { records, into, keys });
  }

  /** Where a room's item sits (its type is integrated: parent and key are known). */
  private placeInRoom(item: Y.Item): Place | typeof NOWHERE {
    const parent = item.parent;
    if (!(parent instanceof Y.AbstractType)) return NOWHERE;
    const holder = parent._item;
    if (holder) return { container: { item: holder.id }, sub: item.parentSub };
    const root = Y.findRootTypeKey(parent);
    return { container: { root }, sub: item.parentSub };
  }

  /**
   * Where a struct sits. A new item names its parent, or (when it was inserted next to another) leaves it
   * to that neighbour: followed without recursion, as a text's characters each name the one before.
   */
  private placeOf(start: Struct): Place | typeof NOWHERE {
    const chain = new Set<Struct>();
    let s: Struct | undefined = start;
    let found: Place | typeof NOWHERE | undefined;
    while (found === undefined) {
      if (!s) return fail('out-of-order', 'it refers to changes the server never received');
      const known = this.places.get(s);
      if (known) {
        found = known;
        break;
      }
      if (!(s instanceof Y.Item)) {
        found = NOWHERE;
        break;
      }
      if (!this.isFresh(s)) {
        found = this.placeInRoom(s);
        break;
      }
      if (chain.has(s)) return fail('invalid-value', 'items placed beside each other in a circle');
      chain.add(s);
      if (typeof s.parent === 'string') found = { container: { root: s.parent }, sub: s.parentSub };
      else if (isId(s.parent)) found = { container: { item: s.parent }, sub: s.parentSub };
      else {
        const next = s.origin ?? s.rightOrigin;
        if (!next) return fail('invalid-value', 'an item with no place');
        s = this.find(next);
      }
    }
    // Every item of the chain sits beside the next: the same type, the same key.
    for (const item of chain) this.places.set(item, found);
    return found;
  }

  /** The path of keys from a root down to a type ('#' for an element of an array), or NOWHERE. */
  private pathOf(container: Place['container']): string[] | typeof NOWHERE {
    const path: string[] = [];
    let c: Place['container'] = container;
    for (;;) {
      if ('root' in c) {
        path.unshift(c.root);
        return path;
      }
      if (path.length >= MAX_PATH) fail('unknown-field', 'nested deeper than the schema');
      const holder = this.find(c.item);
      if (!holder) fail('out-of-order', 'it refers to a type the server never received');
      if (!(holder instanceof Y.Item)) return NOWHERE;
      if (!(holder.content instanceof Y.ContentType)) {
        // A deleted type (its content collected) in the room: whatever goes in goes nowhere.
        if (holder.content instanceof Y.ContentDeleted) return NOWHERE;
        return fail('unknown-field', 'inserted into a value that is not a type');
      }
      const place = this.placeOf(holder);
      if (place === NOWHERE) return NOWHERE;
      path.unshift(place.sub ?? '#');
      c = place.container;
    }
  }

  // ---- the schema -----------------------------------------------------------------------------------

  /** The schema's node for a path (root first), with the `who` in force there. */
  private nodeAt(path: readonly string[]): { node: DocNode; who: Who } {
    const root = path[0]!;
    if (!isTeamDocRoot(root)) return fail('unknown-field', `root ${quote(root)}`);
    let node: DocNode = rootNode(root);
    let who: Who = root === 'meta' ? 'server' : 'owner';
    for (const step of path.slice(1)) {
      let next: DocNode | undefined;
      if (node.kind === 'map') {
        if (step === '#') fail('unknown-field', 'an element where the schema has keys');
        if (step.length > TEAM_DOC_BOUNDS.maxKeyLength) fail('invalid-value', 'a key too long');
        next = node.entry(step);
      } else if (node.kind === 'array') {
        next = step === '#' ? node.item : undefined;
      }
      if (!next) return fail('unknown-field', `${quote(path.slice(0, 2).join('/'))} has no ${quote(step)}`);
      node = next;
      if (node.who) who = node.who;
    }
    return { node, who };
  }

  // ---- who may write --------------------------------------------------------------------------------

  /** The record's fields as the room holds them now, or null when it has no such record. */
  private fieldsNow(root: TeamDocRoot, key: string): Fields | null {
    const current = this.rootMap(root)._map.get(key);
    if (!current || current.deleted) return null;
    const v: unknown = current.content.getContent().at(-1);
    return fieldsOf(asJson(v));
  }

  /**
   * The record's fields once this update is in: the room's, with what the update writes into the record's
   * own map (a comment's fields) or in its place (a JSON record's new value) laid over.
   */
  private fieldsAfter(root: TeamDocRoot, key: string, written?: unknown): Fields {
    if (written !== undefined) return fieldsOf(written);
    const now = this.fieldsNow(root, key);
    const recordItem = this.recordItemAfter(root, key);
    const overlay = recordItem
      ? (this.indexWrites().into.get(`${recordItem.id.client}:${recordItem.id.clock}`) ??
        new Map<string, unknown>())
      : new Map<string, unknown>();
    const replaced = recordItem !== null && this.isFresh(recordItem);
    return (name) => (overlay.has(name) ? overlay.get(name) : replaced ? undefined : now?.(name));
  }

  /** The item that holds the record's map after the update: a new one the update puts there, or the room's. */
  private recordItemAfter(root: TeamDocRoot, key: string): Y.Item | null {
    const made = this.indexWrites().records.get(`${root}\u0000${key}`);
    if (made) return made;
    const current = this.rootMap(root)._map.get(key);
    return current && !current.deleted && current.content instanceof Y.ContentType ? current : null;
  }

  /** Refuses unless `writer` owns the record before the change and after it (when it exists then). */
  private checkOwner(root: TeamDocRoot, key: string, written: unknown, removing: boolean): void {
    const id = `${root}\u0000${key}`;
    if (written === undefined && this.ownerChecked.has(id)) return;
    this.ownerChecked.add(id);
    const mine = (owner: string | null) => owner === 'shared' || owner === this.writer;
    const before = this.fieldsNow(root, key);
    if (before && !mine(ownerOf(root, key, before))) fail('not-yours', `${root} ${quote(key)}`);
    if (removing) return;
    const after = ownerOf(root, key, this.fieldsAfter(root, key, written));
    if (after === 'server') fail('server-only', root);
    if (!mine(after)) fail('not-yours', `${root} ${quote(key)} names another member`);
  }

  /** Whether `writer` may write (or remove) what sits at `path`, a value `written` when one is set. */
  private authorize(path: readonly string[], who: Who, written: unknown, removing: boolean, node: DocNode) {
    const root = path[0] as TeamDocRoot;
    const key = path[1];
    switch (who) {
      case 'server':
        return fail('server-only', root);
      case 'version': {
        const now = schemaVersionOf(this.doc);
        if (removing || typeof written !== 'number' || written < now || written > TEAM_DOC_VERSION)
          fail('server-only', `${root}: version ${String(written)} (the room's is ${now})`);
        return;
      }
      case 'anyone':
        if (!removing && node.kind === 'value' && node.byField && written !== null) {
          if (fieldsOf(written)(node.byField) !== this.writer)
            fail('not-yours', `${root} names another member`);
        }
        return;
      case 'self-key':
        if (!removing && path.at(-1) !== this.writer) fail('not-yours', `${root} ${quote(path.at(-1)!)}`);
        return;
      case 'own-key':
        if (path.at(-1) !== this.writer) fail('not-yours', `${root} ${quote(path.at(-1)!)}`);
        return;
      case 'append':
        // The list itself is set once (checkItem), its elements never removed (checkDeletes).
        if (removing) fail('not-yours', `${root} ${quote(path.at(-1)!)} is never removed`);
        if (node.kind === 'value' && node.byField && fieldsOf(written)(node.byField) !== this.writer)
          fail('not-yours', `${root} names another member`);
        return;
      case 'once': {
        if (removing) fail('not-yours', `${root} ${quote(path.at(-1)!)} is set once`);
        if (written !== this.writer) fail('not-yours', `${root} ${quote(path.at(-1)!)} names another member`);
        return;
      }
      case 'owner':
        if (key === undefined) return; // the root itself (never written as a whole)
        return this.checkOwner(
          root,
          key,
          path.length === 2 ? written : undefined,
          removing && path.length === 2,
        );
    }
  }

  // ---- items ----------------------------------------------------------------------------------------

  private checkItem(item: Y.Item): void {
    const place = this.placeOf(item);
    if (place === NOWHERE) return;
    const containerPath = this.pathOf(place.container);
    if (containerPath === NOWHERE) return;
    const { node: container } = this.nodeAt(containerPath);
    const content = item.content;
    const ref = content.getRef();

    if (container.kind === 'text') {
      if (place.sub !== null) fail('unknown-field', 'a key in a text');
      // Characters (and deleted ones); formatting and embeds are not in the schema.
      if (!(content instanceof Y.ContentString) && !(content instanceof Y.ContentDeleted))
        fail('unknown-field', `content ${ref} in a text`);
      const { who } = this.nodeAt(containerPath);
      this.authorize(containerPath, who, undefined, content instanceof Y.ContentDeleted, container);
      if (content instanceof Y.ContentString) {
        this.grows = true;
        this.countInto(containerPath, place.container, content.str.length, TEAM_DOC_BOUNDS.maxTextLength);
      }
      return;
    }
    if (container.kind === 'value') return fail('unknown-field', 'inserted into a value');
    const path = [...containerPath, place.sub ?? '#'];
    if (container.kind === 'map' && place.sub === null) fail('unknown-field', 'an element in a map');
    if (container.kind === 'array' && place.sub !== null) fail('unknown-field', 'a key in an array');
    const { node, who } = this.nodeAt(path);
    if ((who === 'once' || who === 'append') && place.sub !== null && 'item' in place.container) {
      // Set once: refused where the room's map already holds it.
      const holder = this.find(place.container.item);
      const current =
        holder instanceof Y.Item && !this.isFresh(holder) && holder.content instanceof Y.ContentType
          ? holder.content.type._map.get(place.sub)
          : undefined;
      if (current && !current.deleted) fail('not-yours', `${quote(place.sub)} is set once`);
    }

    if (content instanceof Y.ContentDeleted) {
      // Deleted content in a key replaces what the key holds: a removal.
      if (place.sub !== null) this.authorize(path, who, undefined, true, node);
      return;
    }
    this.grows = true;
    if (content instanceof Y.ContentType) {
      const kind = kindOf(content.type);
      if (kind === null || kind !== node.kind)
        fail('unknown-field', `a ${kind ?? 'type'} where ${node.kind} goes`);
      this.authorize(path, who, undefined, false, node);
      if (container.kind === 'array')
        this.countInto(containerPath, place.container, 1, TEAM_DOC_BOUNDS.maxArrayLength);
      return;
    }
    if (!(content instanceof Y.ContentAny)) return fail('unknown-field', `content of kind ${ref}`);
    if (node.kind !== 'value') fail('unknown-field', `a value where a ${node.kind} goes`);
    if (container.kind === 'map' && content.arr.length !== 1)
      fail('invalid-value', 'a key with several values');
    for (const v of content.arr) {
      const broken = outOfBounds(v);
      if (broken) fail('invalid-value', `${quote(path.slice(0, 2).join('/'))}: ${broken}`);
      if (node.kind === 'value' && !node.schema.safeParse(v).success)
        fail('invalid-value', `${quote(path.slice(0, 2).join('/'))} does not fit the schema`);
      this.authorize(path, who, v, false, node);
    }
    if (container.kind === 'array')
      this.countInto(containerPath, place.container, content.arr.length, TEAM_DOC_BOUNDS.maxArrayLength);
  }

  /** Adds elements or characters to a list's count; refuses once the list would pass `max`. */
  private countInto(path: readonly string[], container: Place['container'], n: number, max: number): void {
    const id = containerId(container);
    let total = this.added.get(id);
    if (total === undefined) {
      total = 0;
      if (!('root' in container)) {
        const holder = this.find(container.item);
        if (holder instanceof Y.Item && holder.content instanceof Y.ContentType && !this.isFresh(holder))
          total = holder.content.type._length;
      }
    }
    total += n;
    this.added.set(id, total);
    if (total > max) fail('invalid-value', `${quote(path.slice(0, 2).join('/'))}: too many elements`);
  }

  // ---- deletions ------------------------------------------------------------------------------------

  private checkDeletions(): void {
    const removed: Y.Item[] = [];
    for (const [client, ranges] of this.deleteSet.clients) {
      const known = Y.getState(this.doc.store, client);
      const list = this.fresh.get(client);
      const last = list?.at(-1);
      const end = Math.max(known, last ? last.id.clock + last.length : 0);
      const structs = this.doc.store.clients.get(client);
      for (const { clock, len } of ranges) {
        if (clock + len > end) fail('out-of-order', 'it deletes what the server never received');
        if (!structs || clock >= known) continue; // only the update's own items: checked as written
        for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
          const s = structs[i]!;
          if (s.id.clock >= clock + len) break;
          if (s instanceof Y.Item && !s.deleted) removed.push(s);
        }
      }
    }
    if (removed.length === 0) return;
    const removing = new Set(removed);
    for (const item of removed) {
      // A type removed with everything in it: the type's own removal is the one to check.
      let holder = item.parent instanceof Y.AbstractType ? item.parent._item : null;
      let covered = false;
      while (holder) {
        if (removing.has(holder)) {
          covered = true;
          break;
        }
        holder = holder.parent instanceof Y.AbstractType ? holder.parent._item : null;
      }
      if (covered) continue;
      const place = this.placeInRoom(item);
      if (place === NOWHERE) continue;
      const containerPath = this.pathOf(place.container);
      if (containerPath === NOWHERE) continue;
      const { node: container, who: containerWho } = this.nodeAt(containerPath);
      if (container.kind === 'text') {
        this.authorize(containerPath, containerWho, undefined, true, container);
        continue;
      }
      // A key set anew: the value it replaces goes with it, and the new value's check is the one that counts.
      if (
        place.sub !== null &&
        this.indexWrites().keys.has(`${containerId(place.container)}\u0000${place.sub}`)
      )
        continue;
      const path = [...containerPath, place.sub ?? '#'];
      const { node, who } = this.nodeAt(path);
      // Removing an element of a list (a board's row) is writing the list; of an append-only one, refused.
      if (container.kind === 'array' && containerWho === 'append')
        fail('not-yours', `${quote(containerPath.slice(0, 2).join('/'))}: an element of a list kept whole`);
      if (container.kind === 'array')
        this.authorize(containerPath, containerWho, undefined, false, container);
      else this.authorize(path, who, undefined, true, node);
    }
  }
}

// ---- each member's share of the room ----------------------------------------------------------------------

/**
 * The bytes of the records each member pays for (contract/team-doc.ts payerOf), per room: measured whole
 * once, then kept current record by record from each transaction's changed keys, whatever its origin (a
 * member, another node through Redis, a migration).
 */
export class RoomShares {
  private readonly records = new Map<string, { payer: string | null; bytes: number }>();
  private readonly members = new Map<string, number>();

  constructor(private readonly doc: Y.Doc) {
    for (const root of [...doc.share.keys()]) {
      if (!isTeamDocRoot(root)) continue;
      for (const key of doc.getMap(root).keys()) this.refresh(root, key);
    }
    doc.on('afterTransaction', this.onTransaction);
  }

  used(memberId: string): number {
    return this.members.get(memberId) ?? 0;
  }

  destroy(): void {
    this.doc.off('afterTransaction', this.onTransaction);
  }

  private readonly onTransaction = (tr: Y.Transaction) => {
    const touched = new Set<string>();
    for (const [type, keys] of tr.changed) {
      let t: Y.AbstractType<Y.YEvent<any>> = type; // eslint-disable-line @typescript-eslint/no-explicit-any -- Yjs's own type for any shared type
      let key: string | null = null;
      // Up to the record: the key of the root map the changed type sits under.
      while (t._item) {
        key = t._item.parentSub;
        const parent = t._item.parent;
        if (!(parent instanceof Y.AbstractType)) break;
        t = parent;
      }
      if (t._item) continue;
      const root = Y.findRootTypeKey(t);
      if (!isTeamDocRoot(root)) continue;
      if (type === t) for (const k of keys) if (k !== null) touched.add(`${root}\u0000${k}`);
      if (type !== t && key !== null) touched.add(`${root}\u0000${key}`);
    }
    for (const id of touched) {
      const [root, key] = id.split('\u0000') as [TeamDocRoot, string];
      this.refresh(root, key);
    }
  };

  private refresh(root: TeamDocRoot, key: string): void {
    const id = `${root}\u0000${key}`;
    const old = this.records.get(id);
    if (old?.payer) this.members.set(old.payer, (this.members.get(old.payer) ?? 0) - old.bytes);
    const map = this.doc.getMap(root);
    if (!map.has(key)) {
      this.records.delete(id);
      return;
    }
    const json = asJson(map.get(key));
    const { payer, bytes } = shareOf(root, key, json);
    this.records.set(id, { payer, bytes });
    if (payer) this.members.set(payer, (this.members.get(payer) ?? 0) + bytes);
  }
}

// ---- the extension ----------------------------------------------------------------------------------------

export interface AuthorityOptions {
  log: (line: string) => void;
  /** The room's document limit: each member's share is a part of it (contract/team-doc.ts). */
  maxDocumentBytes: number;
  /** Hears how long each update's check took, in milliseconds (the team bench). */
  onReview?: (ms: number) => void;
}

interface AuthorityContext {
  memberId?: string;
  room?: string;
}

export function authority(options: AuthorityOptions): Extension {
  const shares = new WeakMap<Y.Doc, RoomShares>();
  const share = memberShareBytes(options.maxDocumentBytes);
  const sharesOf = (doc: Y.Doc) => {
    let s = shares.get(doc);
    if (!s) shares.set(doc, (s = new RoomShares(doc)));
    return s;
  };
  /** Connections made read-only for the one message being held back (afterHandleMessage undoes it). */
  const held = new WeakSet<Connection>();
  /** When each connection was last asked for what the server lacks: at most once a second. */
  const asked = new WeakMap<Connection, number>();
  const askForWhatIsMissing = (connection: Connection, document: Document) => {
    const now = Date.now();
    if (now - (asked.get(connection) ?? 0) < 1_000) return;
    asked.set(connection, now);
    connection.send(
      new OutgoingMessage(document.name).createSyncMessage().writeFirstSyncStepFor(document).toUint8Array(),
    );
  };
  return {
    extensionName: 'team-space-authority',
    // After the rules (who is in, sizes), before persistence: a refused update is never logged or stored.
    priority: 900,

    /** Migrations are the server's: a room is brought to the contract's version as it loads. */
    async afterLoadDocument({ document, documentName }) {
      const result = migrateTeamDoc(document, undefined, undefined, 'server-migration', {
        array: () => new Y.Array(),
        map: () => new Y.Map(),
      });
      if (result.kind === 'upgraded')
        options.log(`migrated room=${quote(documentName)} ${result.from} -> ${result.to}`);
      sharesOf(document);
    },

    async beforeHandleMessage({ document, update: message, context, connection }) {
      const update = updateOf(message);
      if (update === null) return;
      const { memberId, room } = context as AuthorityContext;
      const refuse = (reason: ChangeRefusal, detail: string): never => {
        options.log(
          `refused member=${memberId ?? '?'} room=${quote(room ?? '?')} reason=${reason} (${detail})`,
        );
        throw { reason, code: TEAM_SPACE_CLOSE_CODES[reason] };
      };
      if (update === 'unreadable') return refuse('invalid-value', 'an unreadable message');
      if (!memberId) return refuse('not-yours', 'no member');
      const started = performance.now();
      const review = reviewUpdate(document, update, memberId);
      options.onReview?.(performance.now() - started);
      if (!review.ok && review.reason === 'out-of-order') {
        // Not refused: held back. A provider sends the edits it made while offline as they queued,
        // before the sync that brings what they build on (a node that died, a restart). Hocuspocus
        // neither applies nor acknowledges a read-only connection's update; the server then asks for
        // what it lacks (its sync step 1), and the member's answer brings it all, checked whole.
        connection.readOnly = true;
        held.add(connection);
        askForWhatIsMissing(connection, document);
        return;
      }
      if (!review.ok) return refuse(review.reason, review.detail);
      if (review.grows && sharesOf(document).used(memberId) + update.byteLength > share) {
        return refuse('share-full', `${sharesOf(document).used(memberId)} of ${share} bytes`);
      }
    },

    async afterHandleMessage({ connection }) {
      if (held.delete(connection)) connection.readOnly = false;
    },
  };
}
