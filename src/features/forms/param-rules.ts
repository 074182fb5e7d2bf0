import { plural, t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import type { PromptRules } from '../../../contract/catalog';
import { optionValue, type ParamDef } from '../../../contract/param';
import { PARAMS_LIMITS } from '../../../contract/request-limits';
import { formatCount } from '../../lib/format';

// The form engine's rules (product-notes §3 "The form engine"), pure and with no React: the limits, the field
// names, what a definition allows, hosted media URLs, and one zod rule per kind of value. Which param
// type takes which rule is said once, in param-types.tsx; schema-builder.ts assembles the form's schema.

// api-notes §4 POST /tasks and api-notes §8 "Other limits", as the sandbox enforces them (contract/request-limits.ts).
const PROMPT_CAP = PARAMS_LIMITS.maxPromptLength;
const STRING_CAP = PARAMS_LIMITS.maxStringLength;
const ARRAY_CAP = PARAMS_LIMITS.maxArrayItems;
export const PARAMS_KEYS_CAP = PARAMS_LIMITS.maxKeys;

// Messages are made when a value is checked (in the studio's language then), never at load.
const missingMessage = (): string => t`This field is required.`;
export const hostedOnlyMessage = (): string =>
  t`Upload the file first: only files hosted by the service are accepted`;
const notAnOptionMessage = (): string => t`Choose one of the listed options.`;

/** Where a form-wide error (too many params) is reported, beside the per-param ids. */
export const FORM_ERROR_KEY = '_form';

/** A value as the form holds it: scalars for choices and text, a list of URLs for image_urls. */
export type FormValue = string | number | boolean | string[] | undefined;
export type FormValues = Record<string, FormValue>;

/** The prompt rules a model declares (api-notes §2 "Model"); tools and templates have none. */
export type { PromptRules };

/** The field's label: its displayName, or its id when it has none (product-notes §5). */
export const paramLabel = (def: ParamDef): string => def.displayName?.trim() || def.id;

// ---------------------------------------------------------------------------------------------------
// Field names

/**
 * A param id as a react-hook-form field name: `f_` + the id, with every character other than a letter,
 * digit or hyphen written `_<hex code point>_`. Dots (nesting) and brackets (array indexes) never reach
 * the form library, and the mapping is reversible: `advanced.guidance` <-> `f_advanced_2e_guidance`.
 */
export function fieldName(paramId: string): string {
  let out = 'f_';
  for (const ch of paramId) {
    out += /^[A-Za-z0-9-]$/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/** The param id a field name stands for, or null when it is not one made by fieldName. */
export function paramIdOf(name: string): string | null {
  if (!name.startsWith('f_')) return null;
  const body = name.slice(2);
  if (!/^(?:[A-Za-z0-9-]|_[0-9a-f]+_)*$/.test(body)) return null;
  return body.replace(/_([0-9a-f]+)_/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
}

// ---------------------------------------------------------------------------------------------------
// Definitions as the form sees them

/** The model's prompt as a param definition, so one set of rules covers it (accessible name "Prompt"). */
const promptDef = (rules: PromptRules): ParamDef => ({
  id: 'prompt',
  type: 'long_text',
  displayName: t`Prompt`,
  required: rules.promptRequired,
  ...(rules.promptMaxLength === undefined ? {} : { maxLength: rules.promptMaxLength }),
});

/**
 * The definitions the form renders, in order: for a model its prompt first (merged into a `prompt`
 * def the model may declare itself), then the params. Repeated ids keep the first: one field per key.
 */
export function formDefs(defs: readonly ParamDef[], prompt?: PromptRules): ParamDef[] {
  const seen = new Set<string>();
  const unique = defs.filter((d) => !seen.has(d.id) && seen.add(d.id));
  if (!prompt) return unique;
  const own = unique.find((d) => d.id === 'prompt');
  if (!own) return [promptDef(prompt), ...unique];
  const merged: ParamDef = {
    ...own,
    displayName: own.displayName ?? t`Prompt`,
    required: own.required || prompt.promptRequired,
    maxLength: Math.min(own.maxLength ?? PROMPT_CAP, prompt.promptMaxLength ?? PROMPT_CAP),
  };
  return [merged, ...unique.filter((d) => d !== own)];
}

/**
 * The most characters a text value may have: the def's maxLength or constraints.maxLength (the lower
 * when both), never more than the string limit (2,000), or for the prompt the prompt limit (10,000)
 * (api-notes §4).
 */
export function textLimit(def: ParamDef): number {
  const cap = def.id === 'prompt' ? PROMPT_CAP : STRING_CAP;
  const declared = [def.maxLength, def.constraints?.maxLength].filter((n): n is number => n !== undefined);
  return Math.min(cap, ...declared);
}

/** How many files an image_urls param takes: constraints.maxCount, never more than the array limit (20, api-notes §4). */
export function listLimit(def: ParamDef): number {
  return Math.min(def.constraints?.maxCount ?? ARRAY_CAP, ARRAY_CAP);
}

/** The allowed values of a choice param, typed as the catalog gives them (options, else enumValues). */
export function choiceValues(def: ParamDef): Array<string | number | boolean> {
  if (def.options && def.options.length > 0) return def.options.map(optionValue);
  return def.enumValues ?? [];
}

/** Text params of a type the studio does not know are sent as numbers or booleans when the def says so. */
export type ScalarKind = 'string' | 'number' | 'boolean';
export function unknownValueKind(def: ParamDef): ScalarKind {
  if (typeof def.default === 'number') return 'number';
  if (def.constraints?.min !== undefined || def.constraints?.max !== undefined) return 'number';
  if (typeof def.default === 'boolean') return 'boolean';
  return 'string';
}

// ---------------------------------------------------------------------------------------------------
// Hosted media

export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** Whether a value is written as a URL (has a scheme): a voice value is an option or a URL. */
export const looksLikeUrl = (value: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(value.trim());

/** api-notes §2: media params accept only URLs hosted by the service, here: on the API's origin. */
export function isHostedUrl(url: string, hostedOrigins: readonly string[]): boolean {
  const origin = originOf(url.trim());
  return origin !== null && hostedOrigins.includes(origin);
}

export function hostedOriginsFor(baseUrl: string, extra: readonly string[] = []): string[] {
  const own = originOf(baseUrl);
  const more = extra.map(originOf).filter((o): o is string => o !== null);
  return [...new Set([...(own ? [own] : []), ...more])];
}

// ---------------------------------------------------------------------------------------------------
// Rules, one per kind of value (param-types.tsx says which type takes which)

export interface RuleContext {
  isHosted: (url: string) => boolean;
}
/** The check of one field's value, made from its definition. */
export type Rule = (def: ParamDef, ctx: RuleContext) => z.ZodMiniType<FormValue, FormValue>;

const isBlank = (v: FormValue): boolean =>
  v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

type Issues = { addIssue: (issue: { code: 'custom'; message: string }) => void };
const issue = (ctx: Issues, message: string) => ctx.addIssue({ code: 'custom', message });

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** An optional value and its checks (zod/mini, which keeps the first load small, has no methods). */
const optionalChecked = <T extends FormValue>(
  schema: z.ZodMiniType<T, T>,
  check: (v: T | undefined, ctx: Issues) => void,
) => z.optional(schema).check(z.superRefine(check));

function checkRange(def: ParamDef, n: number, ctx: Issues) {
  const { min, max } = def.constraints ?? {};
  if (min !== undefined && n < min) {
    const least = formatCount(min);
    issue(ctx, t`At least ${least}.`);
  }
  if (max !== undefined && n > max) {
    const most = formatCount(max);
    issue(ctx, t`At most ${most}.`);
  }
}

const checkLength = (v: string, limit: number, ctx: Issues) => {
  if (v.length > limit) {
    const most = formatCount(limit);
    const now = formatCount(v.length);
    issue(ctx, t`At most ${most} characters (now ${now}).`);
  }
};

export const textRule: Rule = (def) => {
  const limit = textLimit(def);
  return optionalChecked(z.string(), (v, ctx) => {
    if (v !== undefined) checkLength(v, limit, ctx);
    if (def.required && isBlank(v)) issue(ctx, missingMessage());
  });
};

export const choiceRule: Rule = (def) => {
  const allowed = choiceValues(def);
  return optionalChecked(scalar, (v, ctx) => {
    if (v === undefined || v === '') {
      if (def.required) issue(ctx, missingMessage());
      return;
    }
    if (allowed.length > 0 && !allowed.some((a) => a === v)) issue(ctx, notAnOptionMessage());
    if (typeof v === 'string') checkLength(v, STRING_CAP, ctx);
    if (typeof v === 'number') checkRange(def, v, ctx);
  });
};

export const mediaRule: Rule = (def, { isHosted }) =>
  optionalChecked(z.string(), (v, ctx) => {
    if (v === undefined || v.trim() === '') {
      if (def.required) issue(ctx, missingMessage());
      return;
    }
    checkLength(v, STRING_CAP, ctx);
    if (!isHosted(v)) issue(ctx, hostedOnlyMessage());
  });

export const mediaListRule: Rule = (def, { isHosted }) => {
  const max = listLimit(def);
  return optionalChecked(z.array(z.string()), (v, ctx) => {
    const urls = (v ?? []).filter((u) => u.trim() !== '');
    if (urls.length === 0) {
      if (def.required) issue(ctx, missingMessage());
      return;
    }
    if (urls.length > max) {
      const most = formatCount(max);
      issue(ctx, plural(max, { one: `At most ${most} file.`, other: `At most ${most} files.` }));
    }
    if (urls.some((u) => u.length > STRING_CAP)) {
      const most = formatCount(STRING_CAP);
      issue(ctx, t`Each URL is at most ${most} characters.`);
    }
    if (urls.some((u) => !isHosted(u))) issue(ctx, hostedOnlyMessage());
  });
};

export const voiceRule: Rule = (def, { isHosted }) => {
  const allowed = choiceValues(def);
  return optionalChecked(scalar, (v, ctx) => {
    if (v === undefined || v === '') {
      if (def.required) issue(ctx, missingMessage());
      return;
    }
    if (allowed.some((a) => a === v)) return;
    // api-notes §2 lists voice among the media-URL types: a voice may be a service-hosted audio file.
    if (typeof v === 'string' && looksLikeUrl(v)) {
      checkLength(v, STRING_CAP, ctx);
      if (!isHosted(v)) issue(ctx, hostedOnlyMessage());
      return;
    }
    if (allowed.length > 0) issue(ctx, notAnOptionMessage());
    else if (typeof v === 'string') checkLength(v, STRING_CAP, ctx);
  });
};

/** Any type the studio does not know: plain text, so a new server type never breaks a form. */
export const unknownRule: Rule = (def) => {
  const kind = unknownValueKind(def);
  return optionalChecked(scalar, (v, ctx) => {
    const text = v === undefined ? '' : String(v);
    if (text.trim() === '') {
      if (def.required) issue(ctx, missingMessage());
      return;
    }
    checkLength(text, STRING_CAP, ctx);
    if (kind === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n)) issue(ctx, t`Enter a number.`);
      else checkRange(def, n, ctx);
    }
    if (kind === 'boolean' && text !== 'true' && text !== 'false') issue(ctx, t`Enter true or false.`);
  });
};
