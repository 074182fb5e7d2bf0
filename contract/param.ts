import { z } from 'zod/mini';

// api-notes §2 "Param definition": shared by models, AI tools and templates.
const MEDIA_TYPES = [
  'image',
  'image_url',
  'image_urls',
  'video_url',
  'audio_url',
  'first_frame',
  'last_frame',
  'mask_url',
] as const;
export const KNOWN_PARAM_TYPES = [
  'enum',
  'long_text',
  'text',
  'aspect_ratio',
  'resolution',
  ...MEDIA_TYPES,
  'voice',
] as const;
export type KnownParamType = (typeof KNOWN_PARAM_TYPES)[number];

/** Param types whose value must be one of the definition's options (`voice` also takes an audio URL). */
export const OPTION_PARAM_TYPES: readonly string[] = [
  'enum',
  'aspect_ratio',
  'resolution',
] satisfies KnownParamType[];

/** Param types whose values are service-hosted media URLs (api-notes §2: foreign URLs go through POST /uploads). */
export type MediaParamType = (typeof MEDIA_TYPES)[number];
/**
 * @internal The sandbox and the form are held to the list by the type above; the list itself is walked
 * by the form's test that every media type gets a media input (features/forms/param-types.test.tsx).
 */
export const MEDIA_PARAM_TYPES: readonly MediaParamType[] = MEDIA_TYPES;

const ParamOptionSchema = z.union([
  z.string(),
  z.object({
    value: z.union([z.string(), z.number(), z.boolean()]),
    label: z.optional(z.string()),
    previewUrl: z.optional(z.string()),
  }),
]);
export type ParamOption = z.infer<typeof ParamOptionSchema>;

const ParamConstraintsSchema = z.object({
  maxCount: z.optional(z.int().check(z.positive())),
  maxLength: z.optional(z.int().check(z.positive())),
  min: z.optional(z.number()),
  max: z.optional(z.number()),
});

export const ParamDefSchema = z.object({
  id: z.string().check(z.minLength(1)),
  // Any string: the spec says the list of types is not complete, so unknown types must parse.
  type: z.string().check(z.minLength(1)),
  displayName: z.optional(z.string()),
  description: z.optional(z.string()),
  required: z._default(z.boolean(), false),
  default: z.optional(z.unknown()),
  options: z.optional(z.array(ParamOptionSchema)),
  enumValues: z.optional(z.array(z.string())),
  maxLength: z.optional(z.int().check(z.positive())),
  constraints: z.optional(ParamConstraintsSchema),
});
export type ParamDef = z.infer<typeof ParamDefSchema>;

/** The value of an option, whichever shape the definition uses. */
export const optionValue = (o: ParamOption): string | number | boolean =>
  typeof o === 'string' ? o : o.value;
