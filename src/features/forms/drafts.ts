import { z } from 'zod/mini';
import type { ParamDef } from '../../../contract/param';
import type { TargetKind } from './form-target';
import { fieldName, type FormValues } from './param-rules';
import { normaliseValue } from './schema-builder';

// Drafts: what the user typed, per selection, in localStorage, so nothing is lost on an error or a
// reload. Only the form's param values are stored: never a key, a secret or anything else. Stored by
// param id (not by field name) and read back through the same normalisation as a Remix, so a draft
// written against an older definition cannot put a value of the wrong shape into a field.

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem'>;

const DraftSchema = z.object({
  v: z.literal(1),
  // Each value is checked against its field by normaliseValue: one odd value never costs the rest.
  values: z.record(z.string(), z.unknown()),
});

export const draftKey = (kind: TargetKind, id: string): string => `media-studio:draft:${kind}:${id}`;

const defaultStorage = (): DraftStorage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be switched off (privacy settings): the form still works, without drafts.
    return null;
  }
};

/** The draft's values for these defs, or null when there is none (or it cannot be read). */
export function loadDraft(
  key: string,
  defs: readonly ParamDef[],
  storage: DraftStorage | null = defaultStorage(),
): FormValues | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = DraftSchema.safeParse(json);
  if (!parsed.success) return null;
  const { values } = parsed.data;
  const entries = defs.flatMap((def) => {
    if (!Object.hasOwn(values, def.id)) return [];
    const v = normaliseValue(def, values[def.id]);
    return v === undefined ? [] : [[fieldName(def.id), v] as const];
  });
  return Object.fromEntries(entries);
}

/** Saves the values as typed (empty ones too: a cleared default stays cleared after a reload). */
export function saveDraft(
  key: string,
  values: FormValues,
  defs: readonly ParamDef[],
  storage: DraftStorage | null = defaultStorage(),
): void {
  const entries = defs.flatMap((def) => {
    const v = values[fieldName(def.id)];
    return v === undefined ? [] : [[def.id, v] as const];
  });
  try {
    storage?.setItem(key, JSON.stringify({ v: 1, values: Object.fromEntries(entries) }));
  } catch {
    // Quota exceeded or storage off: the draft is a convenience, never a reason to fail.
  }
}
