import { z } from 'zod';
import { MediaTypeSchema, ModelTypeSchema } from './category';
import { ParamDefSchema } from './param';

export const PRICE_UNITS = ['image', 'second', 'frame', '1k_chars', 'call'] as const;
export const PriceUnitSchema = z.enum(PRICE_UNITS);
export type PriceUnit = z.infer<typeof PriceUnitSchema>;

export const TypicalPriceSchema = z.object({
  typicalCredits: z.number().nonnegative(),
  // Tolerant: a new unit from the server must not break the catalog; the UI falls back to the raw word.
  unit: z.string(),
  note: z.string().optional(),
});
export type TypicalPrice = z.infer<typeof TypicalPriceSchema>;

export const VersionSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  typicalPrice: TypicalPriceSchema.nullable().optional(),
});
export type Version = z.infer<typeof VersionSchema>;

export const BrandSchema = z.object({
  id: z.string(),
  name: z.string(),
  logo: z.string().optional(),
});

export const ModelSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  type: ModelTypeSchema,
  subType: z.string(),
  description: z.string().default(''),
  brand: BrandSchema,
  promptRequired: z.boolean().default(false),
  promptMaxLength: z.number().int().positive().optional(),
  params: z.array(ParamDefSchema).default([]),
  versions: z.array(VersionSchema).min(1),
  tags: z.array(z.string()).default([]),
});
export type Model = z.infer<typeof ModelSchema>;

export const AiToolSchema = z.object({
  slug: z.string().min(1),
  name: z.string(),
  mediaType: MediaTypeSchema,
  summary: z.string().default(''),
  subType: z.string().default(''),
  coverUrl: z.string().optional(),
  tags: z.array(z.string()).default([]),
  params: z.array(ParamDefSchema).default([]),
  typicalPrice: TypicalPriceSchema.nullable().default(null),
});
export type AiTool = z.infer<typeof AiToolSchema>;

export const TemplateSchema = z.object({
  slug: z.string().min(1),
  name: z.string(),
  mediaType: MediaTypeSchema,
  subType: z.string().default(''),
  summary: z.string().default(''),
  coverUrl: z.string().optional(),
  tags: z.array(z.string()).default([]),
  params: z.array(ParamDefSchema).default([]),
  official: z.boolean(),
  typicalPrice: TypicalPriceSchema.nullable().default(null),
});
export type Template = z.infer<typeof TemplateSchema>;

// List envelopes keep entries unparsed so one bad entry can be reported and skipped (STYLE: safeParse per entry).
export const ModelListSchema = z.object({ models: z.array(z.unknown()) });
export const AiToolListSchema = z.object({ aiTools: z.array(z.unknown()) });
export const TemplateListSchema = z.object({ templates: z.array(z.unknown()) });
