import * as Y from 'yjs';
import {
  fieldsOf,
  isTeamDocRoot,
  memberShareBytes,
  ownerOf,
  recordSize,
  shareOf,
  type TeamDocRoot,
} from '../../../contract/team-doc';
import { Listeners } from '../../lib/store';
import { ROOTS, rootMap, type TeamContext } from './team-doc';

// This member's share of the room (contract/team-doc.ts): the records a member pays for (payerOf: what
// they own, and the boards they created) may take a quarter of the server's document limit. The server
// refuses a change that would grow the room past a full share ('share-full'); this module counts the
// same figure the same way (recordBytes of each record's JSON plus its key's length, over every root),
// so the studio stops sharing before the server has to refuse, and offers to free space. Measured whole
// once, then kept current record by record from each transaction's changed keys (a room holds 10,000
// tasks: one record's change costs that record).

/** Past this part of the share, the studio says it is nearly full and offers to free space. */
const NEARLY_FULL = 0.8;
/** What an update costs beyond its record's JSON (Yjs's framing of one map entry), with room to spare. */
const UPDATE_OVERHEAD = 64;

export interface ShareState {
  /** Bytes this member's records take in the room, as the server counts them. */
  used: number;
  /** This member's share of the room, or null when the server did not say its document limit. */
  limit: number | null;
  /** 'nearly' from 80 % of the share; 'full' once nothing more fits. */
  level: 'ok' | 'nearly' | 'full';
}

/** What a store asks before it writes: whether a record of `bytes` (JSON and key) still fits. */
export interface ShareGate {
  allows(bytes: number): boolean;
}

/** A gate that lets everything through (no limit known, or a test). */
export const OPEN_GATE: ShareGate = { allows: () => true };

/** One of this member's records that can be taken out of the team to free space. */
export interface OwnItem {
  root: 'prompts' | 'tasks';
  key: string;
  bytes: number;
  /** When it was shared (a prompt) or created (a task). */
  at: number;
  /** What the list shows: the prompt's text, or the task's model (untrusted text: render it as text). */
  label: string;
}

/**
 * A value as JSON holds it: fields left undefined are dropped. Yjs would keep them (its encoding has an
 * undefined), and the server refuses a value that is not JSON (contract/team-doc.ts outOfBounds).
 */
export const plainJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A record's size as the share counts it (the contract's rule, as the server counts it). */
export const sizeOf = recordSize;

const asJson = (v: unknown): unknown => (v instanceof Y.AbstractType ? v.toJSON() : v);

/**
 * Who owns the record under `key` of `root` now, as the server judges it (contract/team-doc.ts ownerOf,
 * over the raw value, readable by this studio or not); undefined when there is none. The server refuses
 * a change to a record whose owner is not the writer, whatever the writer's studio could parse of it.
 */
export function ownerNow(doc: Y.Doc, root: TeamDocRoot, key: string): ReturnType<typeof ownerOf> | undefined {
  const map = rootMap(doc, root);
  if (!map.has(key)) return undefined;
  return ownerOf(root, key, fieldsOf(asJson(map.get(key))));
}

export class TeamShare implements ShareGate {
  private readonly records = new Map<string, { payer: string | null; bytes: number }>();
  private used = 0;
  private state: ShareState;
  private readonly listeners = new Listeners();
  private readonly limit: number | null;

  constructor(
    private readonly team: TeamContext,
    maxDocumentBytes: number | null | undefined,
  ) {
    this.limit = maxDocumentBytes ? memberShareBytes(maxDocumentBytes) : null;
    for (const root of Object.values(ROOTS)) {
      for (const key of rootMap(team.doc, root).keys()) this.refresh(root, key);
    }
    this.state = this.measure();
    team.doc.on('afterTransaction', this.onTransaction);
  }

  subscribe = this.listeners.subscribe;

  snapshot = (): ShareState => this.state;

  /** Whether a record of `bytes` may still be written: the server would refuse a change past the share. */
  allows(bytes: number): boolean {
    return this.limit === null || this.used + bytes + UPDATE_OVERHEAD <= this.limit;
  }

  /** This member's shared prompts and tasks' copies, oldest first, with what each takes. */
  ownItems(): OwnItem[] {
    const items: OwnItem[] = [];
    for (const root of [ROOTS.prompts, ROOTS.tasks] as const) {
      const map = rootMap(this.team.doc, root);
      for (const [key, raw] of map.entries()) {
        const record = this.records.get(`${root}\u0000${key}`);
        if (record?.payer !== this.team.memberId) continue;
        const field = fieldsOf(asJson(raw));
        const time = field(root === ROOTS.prompts ? 'sharedAt' : 'createdAt');
        const title = fieldsOf(field('meta'))('title');
        items.push({
          root,
          key,
          bytes: record.bytes,
          at: typeof time === 'number' ? time : 0,
          label: root === ROOTS.prompts ? key : typeof title === 'string' && title ? title : key,
        });
      }
    }
    return items.sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
  }

  /**
   * Takes these records of this member's out of the team (one transaction; the device's own history and
   * library keep theirs). Answers what puts them back as they were (an Undo), while they still fit.
   */
  remove(items: readonly Pick<OwnItem, 'root' | 'key'>[]): () => void {
    const taken: Array<{ root: TeamDocRoot; key: string; value: unknown }> = [];
    for (const { root, key } of items) {
      if (this.records.get(`${root}\u0000${key}`)?.payer !== this.team.memberId) continue;
      const value = rootMap(this.team.doc, root).get(key);
      // Plain JSON records only (prompts, tasks): a copy of the value, not the document's own object.
      if (value instanceof Y.AbstractType) continue;
      taken.push({ root, key, value: structuredClone(value) });
    }
    if (taken.length > 0) {
      this.team.transact(() => {
        for (const { root, key } of taken) rootMap(this.team.doc, root).delete(key);
      });
    }
    return () => {
      const back = taken.filter(({ root, key }) => !rootMap(this.team.doc, root).has(key));
      if (back.length === 0) return;
      const bytes = back.reduce((n, { key, value }) => n + sizeOf(key, value), 0);
      if (!this.allows(bytes)) throw new Error('Your share of the team space has no room for them.');
      this.team.transact(() => {
        for (const { root, key, value } of back) rootMap(this.team.doc, root).set(key, value);
      });
    };
  }

  destroy(): void {
    this.team.doc.off('afterTransaction', this.onTransaction);
    this.listeners.clear();
  }

  private measure(): ShareState {
    const { limit, used } = this;
    const level =
      limit === null ? 'ok' : !this.allows(0) ? 'full' : used >= limit * NEARLY_FULL ? 'nearly' : 'ok';
    return { used, limit, level };
  }

  private readonly onTransaction = (tr: Y.Transaction) => {
    const touched = new Set<string>();
    for (const [type, keys] of tr.changed) {
      let t: Y.AbstractType<unknown> = type as Y.AbstractType<unknown>;
      let key: string | null = null;
      // Up to the record: the key of the root map the changed type sits under.
      while (t._item) {
        key = t._item.parentSub;
        const parent = t._item.parent;
        if (!(parent instanceof Y.AbstractType)) break;
        t = parent as Y.AbstractType<unknown>;
      }
      if (t._item) continue;
      const root = Y.findRootTypeKey(t);
      if (!isTeamDocRoot(root)) continue;
      if (type === t) for (const k of keys) if (k !== null) touched.add(`${root}\u0000${k}`);
      if (type !== t && key !== null) touched.add(`${root}\u0000${key}`);
    }
    if (touched.size === 0) return;
    for (const id of touched) {
      const at = id.indexOf('\u0000');
      this.refresh(id.slice(0, at) as TeamDocRoot, id.slice(at + 1));
    }
    const next = this.measure();
    if (next.used === this.state.used && next.level === this.state.level) return;
    this.state = next;
    this.listeners.notify();
  };

  private refresh(root: TeamDocRoot, key: string): void {
    const id = `${root}\u0000${key}`;
    const old = this.records.get(id);
    if (old?.payer === this.team.memberId) this.used -= old.bytes;
    const map = rootMap(this.team.doc, root);
    if (!map.has(key)) {
      this.records.delete(id);
      return;
    }
    const json = asJson(map.get(key));
    const { payer, bytes } = shareOf(root, key, json);
    this.records.set(id, { payer, bytes });
    if (payer === this.team.memberId) this.used += bytes;
  }
}
