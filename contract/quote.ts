import { z } from 'zod/mini';

const QuoteBreakdownSchema = z.object({
  pricingKey: z.string(),
  base: z.number(),
  multiplier: z.number(),
  surcharges: z.number(),
  basePrice: z.number(),
  minPriceApplied: z.boolean(),
});

// api-notes §2 "Quote": final = max(minPrice, ceil(base x multiplier + surcharges + basePrice)).
export const QuoteSchema = z.object({
  credits: z.number(),
  estimatedSeconds: z.nullable(z.number()),
  modelId: z.string(),
  versionId: z.string(),
  modelName: z.string(),
  breakdown: QuoteBreakdownSchema,
});
export type Quote = z.infer<typeof QuoteSchema>;
