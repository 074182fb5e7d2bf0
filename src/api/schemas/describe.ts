import { z } from 'zod';

export const DESCRIBE_LANGUAGES = ['en', 'zh', 'zh-TW', 'ja', 'fr', 'es', 'de', 'pt', 'ru'] as const;
export type DescribeLanguage = (typeof DESCRIBE_LANGUAGES)[number];

export const DescribeRequestSchema = z.object({
  imageUrl: z.string(),
  language: z.string().optional(),
});

export const ImageDescriptionSchema = z.object({
  credits: z.number(),
  overallDescription: z.string().min(1),
  subject: z.string().default(''),
  composition: z.string().default(''),
  style: z.string().default(''),
  lighting: z.string().default(''),
  palette: z.string().default(''),
  mood: z.string().default(''),
  camera: z.string().nullable().default(null),
});
export type ImageDescription = z.infer<typeof ImageDescriptionSchema>;
