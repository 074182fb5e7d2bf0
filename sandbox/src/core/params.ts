import type { PromptRules } from '../../../contract/catalog';
import { optionValue, type MediaParamType, type ParamDef } from '../../../contract/param';
import { PARAMS_LIMITS } from '../../../contract/request-limits';
import type { ParamValue } from '../../../contract/task';
import { SandboxError, invalidPayload } from './errors';

// api-notes §4 POST /tasks and api-notes §8 "Other limits" (contract/request-limits.ts): the checks on
// params, in the order the service makes them.

const LIMITS = PARAMS_LIMITS;

export type Params = Record<string, ParamValue>;
export type MediaKind = 'image' | 'video' | 'audio';

/** What the validator needs to know about a media URL: null when it is not a service-hosted asset. */
export interface MediaRef {
  kind: MediaKind;
  /** An upload still processing, blocked or errored cannot be used. */
  usable: boolean;
}
export type MediaLookup = (url: string) => MediaRef | null;

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** Shape and size limits that hold for every model (api-notes §8). */
export function checkParamsShape(raw: unknown): Params {
  if (raw === undefined) throw invalidPayload('params is required (an object, possibly empty).', 'params');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalidPayload('params must be a JSON object.', 'params');
  }
  const entries = Object.entries(raw);
  if (entries.length > LIMITS.maxKeys) {
    throw invalidPayload(
      `params has ${entries.length} keys; at most ${LIMITS.maxKeys} are allowed.`,
      'params',
    );
  }
  for (const [id, value] of entries) {
    if (Array.isArray(value)) {
      if (value.length > LIMITS.maxArrayItems) {
        throw invalidPayload(
          `${id} has ${value.length} items; at most ${LIMITS.maxArrayItems} are allowed.`,
          id,
        );
      }
      for (const item of value) {
        if (!isScalar(item)) throw invalidPayload(`${id} items must be strings, numbers or booleans.`, id);
        if (typeof item === 'string' && item.length > LIMITS.maxStringLength) {
          throw invalidPayload(`An item of ${id} is longer than ${LIMITS.maxStringLength} characters.`, id);
        }
      }
    } else if (!isScalar(value)) {
      throw invalidPayload(`${id} must be a string, number, boolean or array.`, id);
    } else if (typeof value === 'string') {
      const max = id === 'prompt' ? LIMITS.maxPromptLength : LIMITS.maxStringLength;
      if (value.length > max) {
        throw invalidPayload(`${id} is ${value.length} characters long; at most ${max} are allowed.`, id);
      }
    }
  }
  return raw as Params;
}

/** Which kind of media each media param type takes: one entry per type of the contract's list. */
const MEDIA_KIND_OF: Readonly<Record<MediaParamType, MediaKind>> = {
  image: 'image',
  image_url: 'image',
  image_urls: 'image',
  first_frame: 'image',
  last_frame: 'image',
  mask_url: 'image',
  video_url: 'video',
  audio_url: 'audio',
};

const allowedValues = (def: ParamDef): string[] | null => {
  if (def.options?.length) return def.options.map((o) => String(optionValue(o)));
  if (def.enumValues?.length) return def.enumValues;
  return null;
};

const isEmpty = (v: ParamValue | undefined) =>
  v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Applies defaults, enforces required params (400 missing_required_params with error.params, api-notes §4 rule 4),
 * then checks each value against its definition. Returns the params the task runs with.
 */
export function resolveParams(
  defs: ParamDef[],
  supplied: Params,
  prompt: PromptRules,
  media: MediaLookup,
): Params {
  const params: Params = { ...supplied };
  for (const def of defs) {
    if (params[def.id] === undefined && def.default !== undefined && def.default !== null) {
      params[def.id] = def.default as ParamValue;
    }
  }

  const missing = defs.filter((d) => d.required && isEmpty(params[d.id]));
  const promptMissing =
    prompt.promptRequired && !defs.some((d) => d.id === 'prompt') && isEmpty(params.prompt);
  if (missing.length || promptMissing) {
    const list = [
      ...(promptMissing
        ? [
            {
              id: 'prompt',
              type: 'long_text',
              required: true,
              default: null,
              options: null,
              constraints: null,
            },
          ]
        : []),
      ...missing.map((d) => ({
        id: d.id,
        type: d.type,
        required: true,
        default: d.default ?? null,
        options: d.options ?? d.enumValues ?? null,
        constraints: d.constraints ?? (d.maxLength ? { maxLength: d.maxLength } : null),
      })),
    ];
    throw new SandboxError(
      400,
      'missing_required_params',
      `Missing required params: ${list.map((p) => p.id).join(', ')}.`,
      { param: list[0]!.id, extra: { params: list } },
    );
  }

  if (params.prompt !== undefined) {
    if (typeof params.prompt !== 'string') throw invalidPayload('prompt must be a string.', 'prompt');
    const max = Math.min(prompt.promptMaxLength ?? LIMITS.maxPromptLength, LIMITS.maxPromptLength);
    if (params.prompt.length > max) {
      throw invalidPayload(
        `prompt is ${params.prompt.length} characters long; this model accepts at most ${max}.`,
        'prompt',
      );
    }
  }

  for (const def of defs) {
    const value = params[def.id];
    if (value === undefined) continue;
    checkValue(def, value, media);
  }
  return params;
}

function checkValue(def: ParamDef, value: ParamValue, media: MediaLookup): void {
  const id = def.id;
  const name = def.displayName ?? id;
  const kind = Object.hasOwn(MEDIA_KIND_OF, def.type) ? MEDIA_KIND_OF[def.type as MediaParamType] : undefined;

  if (def.type === 'image_urls') {
    const list = Array.isArray(value) ? value : [value];
    const max = Math.min(def.constraints?.maxCount ?? LIMITS.maxArrayItems, LIMITS.maxArrayItems);
    if (list.length > max) throw invalidPayload(`${name} takes at most ${max} images.`, id);
    for (const item of list) checkMediaUrl(id, name, item, 'image', media);
    return;
  }
  if (Array.isArray(value)) throw invalidPayload(`${name} takes a single value, not a list.`, id);

  if (kind) {
    checkMediaUrl(id, name, value, kind, media);
    return;
  }
  if (def.type === 'voice') {
    const allowed = allowedValues(def);
    if (allowed?.includes(String(value))) return;
    if (typeof value === 'string' && media(value)) {
      checkMediaUrl(id, name, value, 'audio', media);
      return;
    }
    throw invalidPayload(`${name} must be one of the listed voices or a service-hosted audio URL.`, id, {
      allowed,
    });
  }

  const allowed = allowedValues(def);
  if (
    allowed &&
    ['enum', 'aspect_ratio', 'resolution'].includes(def.type) &&
    !allowed.includes(String(value))
  ) {
    throw invalidPayload(`${name} must be one of: ${allowed.join(', ')}.`, id, { allowed });
  }
  if (def.type === 'text' || def.type === 'long_text') {
    if (typeof value !== 'string') throw invalidPayload(`${name} must be text.`, id);
    const max = def.maxLength ?? def.constraints?.maxLength;
    if (max !== undefined && value.length > max) {
      throw invalidPayload(`${name} is ${value.length} characters long; at most ${max} are allowed.`, id);
    }
  }
  if (typeof value === 'number') {
    const { min, max } = def.constraints ?? {};
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      throw invalidPayload(`${name} must be between ${min ?? '-inf'} and ${max ?? 'inf'}.`, id);
    }
  }
}

function checkMediaUrl(id: string, name: string, value: unknown, kind: MediaKind, media: MediaLookup): void {
  if (typeof value !== 'string' || !value) throw invalidPayload(`${name} must be a URL.`, id);
  const ref = media(value);
  if (!ref) {
    throw invalidPayload(
      `${name} must be a URL hosted by the service. Upload the file with POST /uploads and send the URL it returns.`,
      id,
    );
  }
  if (ref.kind !== kind)
    throw invalidPayload(
      `${name} needs ${kind === 'image' ? 'an' : 'a'} ${kind}, not ${ref.kind === 'image' ? 'an' : 'a'} ${ref.kind}.`,
      id,
    );
  if (!ref.usable)
    throw invalidPayload(
      `${name} points at an upload that is not ready (still processing, blocked or errored).`,
      id,
    );
}
