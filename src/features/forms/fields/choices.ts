import type { ParamDef } from '../../../../contract/param';
import type { FormValue } from '../param-rules';

// The options of a choice param (enum, aspect_ratio, resolution, voice) as controls need them: a
// string key for the DOM, the label to show (as text), and the value with its own type to send.

export interface Choice {
  key: string;
  label: string;
  value: string | number | boolean;
  previewUrl?: string;
}

/** The key of "no value" in a select or segmented control. */
export const UNSET_KEY = '';

export function choicesOf(def: ParamDef): Choice[] {
  const raw: Array<Omit<Choice, 'key'>> =
    def.options && def.options.length > 0
      ? def.options.map((o) =>
          typeof o === 'string'
            ? { label: o, value: o }
            : {
                label: o.label?.trim() ? o.label : String(o.value),
                value: o.value,
                ...(o.previewUrl ? { previewUrl: o.previewUrl } : {}),
              },
        )
      : (def.enumValues ?? []).map((v) => ({ label: v, value: v }));
  // The value itself is the friendliest key (end-to-end tests can select by it); the position is
  // used when two values print alike (1 and "1") or one prints empty.
  const printed = raw.map((c) => String(c.value));
  const distinct = new Set(printed).size === printed.length && !printed.includes(UNSET_KEY);
  return raw.map((c, i) => ({ ...c, key: distinct ? printed[i]! : `#${i}` }));
}

/** The key of the choice holding this value, or UNSET_KEY. */
export function keyOf(choices: readonly Choice[], value: FormValue): string {
  if (value === undefined || value === '' || Array.isArray(value)) return UNSET_KEY;
  return choices.find((c) => c.value === value)?.key ?? UNSET_KEY;
}

export function valueOf(choices: readonly Choice[], key: string): FormValue {
  return choices.find((c) => c.key === key)?.value ?? '';
}

/** Whether the field needs a "not set" entry: optional and without a default, it may stay empty. */
export const allowsUnset = (def: ParamDef): boolean =>
  !def.required && (def.default === undefined || def.default === null || def.default === '');

/** Short enough to show every option at once as a segmented control. */
export function fitsSegmented(choices: readonly Choice[], maxOptions = 5, maxLabel = 16): boolean {
  return (
    choices.length > 0 && choices.length <= maxOptions && choices.every((c) => c.label.length <= maxLabel)
  );
}
