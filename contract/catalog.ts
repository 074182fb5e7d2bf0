import { z } from 'zod/mini';
import { MediaTypeSchema, ModelTypeSchema } from './category';
import { ParamDefSchema } from './param';

export const PRICE_UNITS = ['image', 'second', 'frame', '1k_chars', 'call'] as const;

const TypicalPriceSchema = z.object({
  typicalCredits: z.number().check(z.nonnegative()),
  // Tolerant: a new unit from the server must not break the catalog; the UI falls back to the raw word.
  unit: z.string(),
  note: z.optional(z.string()),
});
export type TypicalPrice = z.infer<typeof TypicalPriceSchema>;

const VersionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  typicalPrice: z.optional(z.nullable(TypicalPriceSchema)),
});
export type Version = z.infer<typeof VersionSchema>;

const BrandSchema = z.object({
  id: z.string(),
  name: z.string(),
  logo: z.optional(z.string()),
});

export const ModelSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  type: ModelTypeSchema,
  subType: z.string(),
  description: z._default(z.string(), ''),
  brand: BrandSchema,
  promptRequired: z._default(z.boolean(), false),
  promptMaxLength: z.optional(z.int().check(z.positive())),
  params: z._default(z.array(ParamDefSchema), []),
  versions: z.array(VersionSchema).check(z.minLength(1)),
  tags: z._default(z.array(z.string()), []),
});
export type Model = z.infer<typeof ModelSchema>;
/** The prompt rules a model declares, checked by the studio's form and by the sandbox (api-notes §2 "Model"). */
export type PromptRules = Pick<Model, 'promptRequired' | 'promptMaxLength'>;

export const AiToolSchema = z.object({
  slug: z.string().check(z.minLength(1)),
  name: z.string(),
  mediaType: MediaTypeSchema,
  summary: z._default(z.string(), ''),
  subType: z._default(z.string(), ''),
  coverUrl: z.optional(z.string()),
  tags: z._default(z.array(z.string()), []),
  params: z._default(z.array(ParamDefSchema), []),
  typicalPrice: z._default(z.nullable(TypicalPriceSchema), null),
});
export type AiTool = z.infer<typeof AiToolSchema>;

export const TemplateSchema = z.object({
  slug: z.string().check(z.minLength(1)),
  name: z.string(),
  mediaType: MediaTypeSchema,
  subType: z._default(z.string(), ''),
  summary: z._default(z.string(), ''),
  coverUrl: z.optional(z.string()),
  tags: z._default(z.array(z.string()), []),
  params: z._default(z.array(ParamDefSchema), []),
  official: z.boolean(),
  typicalPrice: z._default(z.nullable(TypicalPriceSchema), null),
});
export type Template = z.infer<typeof TemplateSchema>;

// List envelopes keep entries unparsed so one bad entry can be reported and skipped (safeParse per entry).
export const ModelListSchema = z.object({ models: z.array(z.unknown()) });
export const AiToolListSchema = z.object({ aiTools: z.array(z.unknown()) });
export const TemplateListSchema = z.object({ templates: z.array(z.unknown()) });
