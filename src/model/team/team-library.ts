import type * as Y from 'yjs';
import { z } from 'zod/mini';
import { PresetSchema, type PortablePreset, type Preset } from '../library/preset-schema';
import type { NewPreset } from '../library/presets';
import {
  PROMPT_CAP,
  PromptRecordSchema,
  promptKey,
  type PortablePrompt,
  type PromptRecord,
} from '../library/prompt-library';
import { acceptedRecord, outOfBounds, TeamDocValues } from '../../../contract/team-doc';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { OPEN_GATE, ownerNow, plainJson, sizeOf, type ShareGate } from './team-share';
import { Listeners } from '../../lib/store';

// The team's library (docs/team-space.md, `presets` and `prompts`): presets and prompts a member
// shared to the team. Each is a plain JSON value that only its author writes, under its id in `presets`
// and under its text (promptKey) in `prompts`: the last write wins, and Yjs merges the rest. "Mine" stays
// the local PresetStore and PromptLibrary; a team item is copied into them by the caller, from the
// record presetToSave / promptToSave give (a copy gets an id of its own, so sharing it back never
// overwrites the original author's entry).
//
// Everything read here was written by another member's studio, or by a hostile client: each value is
// parsed with the local stores' schemas (a preset's name at most 200 characters, a prompt at most the
// API's 10,000), a preset over MAX_PRESET_CHARS serialized is skipped before parsing, a prompt filed
// under a key that is not its own text is skipped. What fails is left out of the snapshot, never thrown.
// The document cannot prove who wrote a value (any member of the room may write any key): `by` is what
// the writer claims, which is why only the member's own entries can be unshared from this studio.
//
// Features import only this module's types (and call the methods of an instance the app hands them):
// importing a value from here would pull Yjs into their chunk.

/**
 * A preset larger than this, serialized, is skipped unread: params are otherwise unbounded.
 * @internal
 */
export const MAX_PRESET_CHARS = 64 * 1024;
/** A display name longer than this is not shown (the member shows as unnamed). */
const MAX_MEMBER_NAME = 100;

const MemberIdSchema = z.string().check(z.minLength(1), z.maxLength(200));

/** A preset as the team holds it: the portable preset, who shared it and when. */
const TeamPresetRecordSchema = z.extend(z.omit(PresetSchema, { connectionId: true }), {
  by: MemberIdSchema,
  sharedAt: z.number(),
});
export type TeamPresetRecord = z.infer<typeof TeamPresetRecordSchema>;

/** A prompt as the team holds it, under its text (promptKey). */
const TeamPromptRecordSchema = z.object({
  text: PromptRecordSchema.shape.text,
  by: MemberIdSchema,
  sharedAt: z.number(),
  /** The sharer's count of uses, when they shared it: a hint, never summed into anyone's library. */
  uses: z.catch(z.optional(z.int().check(z.positive())), undefined),
  /** Pinned by the sharer: pinned ones come first in the team's list too. */
  pinned: z.catch(z.optional(z.boolean()), undefined),
});
export type TeamPromptRecord = z.infer<typeof TeamPromptRecordSchema>;

const MemberSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_MEMBER_NAME)),
});

/** Who shared an item, as the list shows it. */
interface SharedBy {
  /** The sharer's member id. */
  by: string;
  /** Their display name (untrusted text: render it as text), or null when they have none readable. */
  byName: string | null;
  sharedAt: number;
  /** Shared by this member: only these can be unshared here. */
  mine: boolean;
}

export type TeamPreset = Omit<TeamPresetRecord, 'by' | 'sharedAt'> & SharedBy;
export type TeamPrompt = Omit<TeamPromptRecord, 'by' | 'sharedAt'> & SharedBy;

export interface TeamLibrarySnapshot {
  /** Newest shared first. */
  presets: readonly TeamPreset[];
  /** Pinned by their sharer first, then newest shared. */
  prompts: readonly TeamPrompt[];
}

export type ShareResult =
  | { ok: true }
  /**
   * Refused: `taken` when another member's item sits under that key, `invalid` when it does not parse,
   * `full` when this member's share of the room has no room for it.
   */
  | { ok: false; reason: 'taken' | 'invalid' | 'full' };

function serializedLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}

export class TeamLibrary {
  private readonly presets: Y.Map<unknown>;
  private readonly prompts: Y.Map<unknown>;
  private readonly members: Y.Map<unknown>;
  private readonly listeners = new Listeners();
  private cached: TeamLibrarySnapshot | null = null;
  // Y.Map hands back the same object for a value until it is replaced: each is parsed once.
  private readonly parsedPresets = new WeakMap<object, TeamPresetRecord | null>();
  private readonly parsedPrompts = new WeakMap<object, TeamPromptRecord | null>();

  constructor(
    private readonly context: TeamContext,
    private readonly gate: ShareGate = OPEN_GATE,
  ) {
    this.presets = rootMap(context.doc, ROOTS.presets);
    this.prompts = rootMap(context.doc, ROOTS.prompts);
    this.members = rootMap(context.doc, ROOTS.members);
    this.presets.observe(this.changed);
    this.prompts.observe(this.changed);
    // A member renaming themselves renames what they shared.
    this.members.observe(this.changed);
  }

  /** Stops following the document (the team space was turned off). */
  destroy(): void {
    this.presets.unobserve(this.changed);
    this.prompts.unobserve(this.changed);
    this.members.unobserve(this.changed);
    this.listeners.clear();
  }

  subscribe = this.listeners.subscribe;

  /** The team's shared presets and prompts; the same object until the document changes. */
  snapshot = (): TeamLibrarySnapshot => {
    this.cached ??= this.read();
    return this.cached;
  };

  private changed = (): void => {
    this.cached = null;
    this.listeners.notify();
  };

  // ---- reading ----------------------------------------------------------------------------------

  private parsePreset(raw: unknown): TeamPresetRecord | null {
    if (typeof raw !== 'object' || raw === null) return null;
    const known = this.parsedPresets.get(raw);
    if (known !== undefined) return known;
    let parsed: TeamPresetRecord | null = null;
    if (serializedLength(raw) <= MAX_PRESET_CHARS) {
      const result = TeamPresetRecordSchema.safeParse(raw);
      parsed = result.success ? result.data : null;
    }
    this.parsedPresets.set(raw, parsed);
    return parsed;
  }

  private parsePrompt(raw: unknown): TeamPromptRecord | null {
    if (typeof raw !== 'object' || raw === null) return null;
    const known = this.parsedPrompts.get(raw);
    if (known !== undefined) return known;
    const result = TeamPromptRecordSchema.safeParse(raw);
    const parsed = result.success ? result.data : null;
    this.parsedPrompts.set(raw, parsed);
    return parsed;
  }

  /** The preset shared under `id`, parsed; null when there is none or it does not parse. */
  private presetAt(id: string): TeamPresetRecord | null {
    const raw = this.presets.get(id);
    if (!acceptedRecord('presets', id, raw)) return null;
    const record = this.parsePreset(raw);
    return record && record.id === id ? record : null;
  }

  private promptAt(key: string): TeamPromptRecord | null {
    const raw = this.prompts.get(key);
    if (!acceptedRecord('prompts', key, raw)) return null;
    const record = this.parsePrompt(raw);
    return record && record.text === key ? record : null;
  }

  /** A member's display name, or null when they have none (or an unreadable one). */
  nameOf(memberId: string): string | null {
    const parsed = MemberSchema.safeParse(this.members.get(memberId));
    return parsed.success ? parsed.data.name : null;
  }

  private read(): TeamLibrarySnapshot {
    const me = this.context.memberId;
    const names = new Map<string, string | null>();
    const sharedBy = (by: string, sharedAt: number): SharedBy => {
      if (!names.has(by)) names.set(by, this.nameOf(by));
      return { by, byName: names.get(by) ?? null, sharedAt, mine: by === me };
    };
    const presets: TeamPreset[] = [];
    for (const id of this.presets.keys()) {
      const record = this.presetAt(id);
      if (!record) continue;
      const { by, sharedAt, ...preset } = record;
      presets.push({ ...preset, ...sharedBy(by, sharedAt) });
    }
    presets.sort((a, b) => b.sharedAt - a.sharedAt || a.id.localeCompare(b.id));
    const prompts: TeamPrompt[] = [];
    for (const key of this.prompts.keys()) {
      const record = this.promptAt(key);
      if (!record) continue;
      const { by, sharedAt, ...prompt } = record;
      prompts.push({ ...prompt, ...sharedBy(by, sharedAt) });
    }
    prompts.sort(
      (a, b) =>
        Number(b.pinned ?? false) - Number(a.pinned ?? false) ||
        b.sharedAt - a.sharedAt ||
        a.text.localeCompare(b.text),
    );
    return { presets, prompts };
  }

  // ---- sharing ----------------------------------------------------------------------------------

  /**
   * Shares one of this member's presets (or shares it again, as it is now). Refused when another
   * member's preset sits under that id, or when it would not be read back (too large, invalid).
   */
  sharePreset(preset: PortablePreset | Preset): ShareResult {
    // The schema strips what is not the team's (a local preset's connectionId).
    const record = TeamPresetRecordSchema.safeParse({
      ...preset,
      by: this.context.memberId,
      sharedAt: this.context.now(),
    });
    if (!record.success || serializedLength(record.data) > MAX_PRESET_CHARS) {
      return { ok: false, reason: 'invalid' };
    }
    const value = plainJson(record.data);
    if (outOfBounds(value) || !TeamDocValues.preset.safeParse(value).success)
      return { ok: false, reason: 'invalid' };
    // Whatever sits under the id, readable here or not, is refused by the server unless it is this member's.
    const owner = ownerNow(this.context.doc, ROOTS.presets, value.id);
    if (owner !== undefined && owner !== this.context.memberId) return { ok: false, reason: 'taken' };
    if (!this.gate.allows(sizeOf(value.id, value))) return { ok: false, reason: 'full' };
    this.context.transact(() => this.presets.set(value.id, value));
    return { ok: true };
  }

  /** Stops sharing a preset this member shared; false when it is not theirs (or not shared). */
  unsharePreset(id: string): boolean {
    if (this.presetAt(id)?.by !== this.context.memberId) return false;
    this.context.transact(() => this.presets.delete(id));
    return true;
  }

  /**
   * Shares a prompt under its text. Refused when the same prompt is already another member's share
   * (the team sees it once, under the first to share it).
   */
  sharePrompt(
    prompt: Pick<PromptRecord, 'text'> & Partial<Pick<PromptRecord, 'uses' | 'pinned'>>,
  ): ShareResult {
    const text = promptKey(prompt.text);
    const record = TeamPromptRecordSchema.safeParse({
      text,
      by: this.context.memberId,
      sharedAt: this.context.now(),
      ...(prompt.uses !== undefined ? { uses: prompt.uses } : {}),
      ...(prompt.pinned ? { pinned: true } : {}),
    });
    if (!text || text.length > PROMPT_CAP || !record.success) return { ok: false, reason: 'invalid' };
    const value = plainJson(record.data);
    if (outOfBounds(value) || !TeamDocValues.prompt.safeParse(value).success)
      return { ok: false, reason: 'invalid' };
    // The server judges the record under this text by its `by` alone: one this studio cannot read (another
    // text, an unknown shape) is still another member's, and overwriting it would be refused whole.
    const owner = ownerNow(this.context.doc, ROOTS.prompts, text);
    if (owner !== undefined && owner !== this.context.memberId) return { ok: false, reason: 'taken' };
    if (!this.gate.allows(sizeOf(text, value))) return { ok: false, reason: 'full' };
    this.context.transact(() => this.prompts.set(text, value));
    return { ok: true };
  }

  /** Stops sharing a prompt this member shared; false when it is not theirs (or not shared). */
  unsharePrompt(text: string): boolean {
    const key = promptKey(text);
    if (this.promptAt(key)?.by !== this.context.memberId) return false;
    this.context.transact(() => this.prompts.delete(key));
    return true;
  }

  // ---- copying into Mine ------------------------------------------------------------------------

  /** What PresetStore.save keeps of a team preset ("Copy to mine"): a preset of this key's own. */
  presetToSave(preset: TeamPreset): NewPreset {
    return {
      name: preset.name,
      itemName: preset.itemName,
      ...(preset.category ? { category: preset.category } : {}),
      request: structuredClone(preset.request),
    };
  }

  /**
   * What PromptLibrary.importPortable keeps of a team prompt ("Copy to mine"): one use, now, unpinned.
   * The sharer's uses are theirs, not this key's.
   */
  promptToSave(prompt: TeamPrompt): PortablePrompt {
    const at = this.context.now();
    return { text: prompt.text, firstUsedAt: at, lastUsedAt: at, uses: 1, pinned: false };
  }
}
