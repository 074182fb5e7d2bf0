import { z } from 'zod/mini';

export const DESCRIBE_LANGUAGES = ['en', 'zh', 'zh-TW', 'ja', 'fr', 'es', 'de', 'pt', 'ru'] as const;
export type DescribeLanguage = (typeof DESCRIBE_LANGUAGES)[number];

export const ImageDescriptionSchema = z.object({
  credits: z.number(),
  overallDescription: z.string().check(z.minLength(1)),
  subject: z._default(z.string(), ''),
  composition: z._default(z.string(), ''),
  style: z._default(z.string(), ''),
  lighting: z._default(z.string(), ''),
  palette: z._default(z.string(), ''),
  mood: z._default(z.string(), ''),
  camera: z._default(z.nullable(z.string()), null),
});
export type ImageDescription = z.infer<typeof ImageDescriptionSchema>;
