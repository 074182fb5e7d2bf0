import { z } from 'zod';

// spec 2 "Param definition": shared by models, AI tools and templates.
export const KNOWN_PARAM_TYPES = [
  'enum',
  'long_text',
  'text',
  'aspect_ratio',
  'resolution',
  'image',
  'image_url',
  'image_urls',
  'video_url',
  'audio_url',
  'first_frame',
  'last_frame',
  'mask_url',
  'voice',
] as const;
export type KnownParamType = (typeof KNOWN_PARAM_TYPES)[number];

/** Param types whose values are service-hosted media URLs (spec 2: foreign URLs go through POST /uploads). */
export const MEDIA_PARAM_TYPES: readonly string[] = [
  'image',
  'image_url',
  'image_urls',
  'video_url',
  'audio_url',
  'first_frame',
  'last_frame',
  'mask_url',
];

export const ParamOptionSchema = z.union([
  z.string(),
  z.object({
    value: z.union([z.string(), z.number(), z.boolean()]),
    label: z.string().optional(),
    previewUrl: z.string().optional(),
  }),
]);
export type ParamOption = z.infer<typeof ParamOptionSchema>;

export const ParamConstraintsSchema = z.object({
  maxCount: z.number().int().positive().optional(),
  maxLength: z.number().int().positive().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

export const ParamDefSchema = z.object({
  id: z.string().min(1),
  // Any string: the spec says the list of types is not complete, so unknown types must parse.
  type: z.string().min(1),
  displayName: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().default(false),
  default: z.unknown().optional(),
  options: z.array(ParamOptionSchema).optional(),
  enumValues: z.array(z.string()).optional(),
  maxLength: z.number().int().positive().optional(),
  constraints: ParamConstraintsSchema.optional(),
});
export type ParamDef = z.infer<typeof ParamDefSchema>;

/** The value of an option, whichever shape the definition uses. */
export const optionValue = (o: ParamOption): string | number | boolean =>
  typeof o === 'string' ? o : o.value;
