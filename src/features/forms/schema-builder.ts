import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';
import {
  choiceValues,
  FORM_ERROR_KEY,
  fieldName,
  formDefs,
  hostedOriginsFor,
  isHostedUrl,
  PARAMS_KEYS_CAP,
  paramIdOf,
  unknownValueKind,
  type FormValue,
  type FormValues,
  type PromptRules,
  type RuleContext,
} from './param-rules';
import { isKnownParamType, paramTypeOf } from './param-types';

// The schema of a form's values (product-notes §3 "The form engine"), built from the catalog's param
// definitions: one zod schema that drives the field errors, the quote and the submit alike, each field
// checked by its type's rule (param-types.tsx). The form holds values under safe field names
// (react-hook-form reads dots as nesting); this module maps them to and from the exact param ids the
// API expects.

export interface SchemaOptions {
  /** The API base URL: a media URL must be on its origin (api-notes §2: only service-hosted URLs). */
  baseUrl: string;
  /** Models only: a "prompt" field is added before the params. */
  prompt?: PromptRules;
  /**
   * More origins known to host the service's files: given by the app (a CDN) or learnt while the form
   * is open (the origin of an upload's URL). A function is read at each validation.
   */
  hostedOrigins?: readonly string[] | (() => readonly string[]);
}

export type ParamSchema = z.ZodMiniType<FormValues, FormValues>;

/**
 * The schema of the form values: one rule per field, by param type, plus the 50-keys limit on the
 * params the values would send. `defs` are the catalog's; a model's prompt comes from `options.prompt`.
 */
export function buildParamSchema(defs: readonly ParamDef[], options: SchemaOptions): ParamSchema {
  const all = formDefs(defs, options.prompt);
  const { hostedOrigins = [] } = options;
  const ctx: RuleContext = {
    isHosted: (url) =>
      isHostedUrl(
        url,
        hostedOriginsFor(
          options.baseUrl,
          typeof hostedOrigins === 'function' ? hostedOrigins() : hostedOrigins,
        ),
      ),
  };
  const shape = Object.fromEntries(
    all.map((def) => [fieldName(def.id), paramTypeOf(def.type).rule(def, ctx)]),
  );
  return z.object(shape).check(
    z.superRefine((values, refine) => {
      const count = Object.keys(toRequestParams(values, all)).length;
      if (count > PARAMS_KEYS_CAP) {
        refine.addIssue({
          code: 'custom',
          path: [FORM_ERROR_KEY],
          message: t`At most ${PARAMS_KEYS_CAP} parameters can be sent; this form would send ${count}. Clear some optional fields.`,
        });
      }
    }),
  );
}

export interface Validation {
  valid: boolean;
  /** Messages by param id (FORM_ERROR_KEY for the form as a whole); the first per field. */
  errors: Record<string, string>;
}

/** Runs the schema and reports by param id, for the quote, "Copy request" and the submit. */
export function validateValues(schema: ParamSchema, values: FormValues): Validation {
  const result = schema.safeParse(values);
  if (result.success) return { valid: true, errors: {} };
  const errors: Array<[string, string]> = [];
  for (const i of result.error.issues) {
    const head = i.path[0];
    const key = typeof head === 'string' ? (paramIdOf(head) ?? head) : FORM_ERROR_KEY;
    if (!errors.some(([k]) => k === key)) errors.push([key, i.message]);
  }
  return { valid: false, errors: Object.fromEntries(errors) };
}

// ---------------------------------------------------------------------------------------------------
// Values <-> request params

/** The pre-filled values: each def's default (api-notes §2: applied when omitted, so sent when untouched). */
export function defaultValues(defs: readonly ParamDef[]): FormValues {
  return Object.fromEntries(
    defs.map((def) => [fieldName(def.id), normaliseValue(def, def.default) ?? emptyValue(def)]),
  );
}

/** The empty value of a field: no URLs for a list, an empty string otherwise. */
export const emptyValue = (def: ParamDef): FormValue => (paramTypeOf(def.type).holds === 'list' ? [] : '');

/** The param value a form value sends, or undefined when it is empty and so omitted. */
export function toParamValue(def: ParamDef, value: FormValue): ParamValue | undefined {
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    const urls = value.filter((u) => u.trim() !== '');
    return urls.length > 0 ? urls : undefined;
  }
  if (!isKnownParamType(def.type) && typeof value === 'string') {
    const kind = unknownValueKind(def);
    const text = value.trim();
    if (kind === 'number' && text !== '' && Number.isFinite(Number(text))) return Number(text);
    if (kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  }
  return value;
}

/**
 * The `params` of a POST /tasks body: each def's value under its exact id (dots and all), empty
 * optional values omitted. Only defined params are sent: for tools and templates the fixed ones are
 * not in the definitions, so they can never be sent.
 */
export function toRequestParams(values: FormValues, defs: readonly ParamDef[]): Record<string, ParamValue> {
  const entries: Array<[string, ParamValue]> = [];
  for (const def of defs) {
    const name = fieldName(def.id);
    const v = Object.hasOwn(values, name) ? toParamValue(def, values[name]) : undefined;
    if (v !== undefined) entries.push([def.id, v]);
  }
  return Object.fromEntries(entries);
}

/**
 * A value from outside the form (a request's params, a draft, a default) as the field holds it, or
 * undefined when it does not fit the field. Choice values are matched to the option's own value, so
 * "2" from a URL becomes 2 when the option's value is the number 2.
 */
export function normaliseValue(def: ParamDef, raw: unknown): FormValue {
  if (raw === undefined || raw === null) return undefined;
  const { holds } = paramTypeOf(def.type);
  if (holds === 'list') {
    const list: unknown[] = Array.isArray(raw) ? raw : [raw];
    return list.every((u): u is string => typeof u === 'string') ? list : undefined;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') return undefined;
  if (holds === 'choice') {
    const allowed = choiceValues(def);
    const exact = allowed.find((a) => a === raw);
    if (exact !== undefined) return exact;
    const loose = allowed.find((a) => String(a) === String(raw));
    if (loose !== undefined) return loose;
    // Not among the options: kept as given, so the field shows the error instead of losing the value.
    return raw;
  }
  return String(raw);
}

/** The form values for a request's params (Remix, drafts): only keys the defs know, normalised. */
export function fromRequestParams(
  params: Readonly<Record<string, unknown>>,
  defs: readonly ParamDef[],
): FormValues {
  const entries: Array<[string, FormValue]> = [];
  for (const def of defs) {
    if (!Object.hasOwn(params, def.id)) continue;
    const v = normaliseValue(def, params[def.id]);
    if (v !== undefined) entries.push([fieldName(def.id), v]);
  }
  return Object.fromEntries(entries);
}
