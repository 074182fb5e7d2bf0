import { z } from 'zod/mini';

// api-notes §1: the public categories (type x subType); GET /models requires one pair.
export const CATEGORIES = [
  { type: 'image', subType: 'default' },
  { type: 'image', subType: 'edit-image' },
  { type: 'image', subType: 'image-svg' },
  { type: 'video', subType: 'text-ref' },
  { type: 'video', subType: 'motion-control' },
  { type: 'video', subType: 'first-last-frame' },
  { type: 'video', subType: 'audio-lipsync' },
  { type: 'video', subType: 'extend-video' },
  { type: 'video', subType: 'video-edit' },
  { type: 'audio', subType: 'text-to-speech' },
  { type: 'audio', subType: 'voice-clone' },
  { type: 'audio', subType: 'sound-effect' },
  { type: 'audio', subType: 'music' },
] as const;

export type Category = (typeof CATEGORIES)[number];
export type ModelType = Category['type'];

export const ModelTypeSchema = z.enum(['image', 'video', 'audio']);
/** AI tools and templates are image or video only (api-notes §2). */
export const MediaTypeSchema = z.enum(['image', 'video']);
export type MediaType = z.infer<typeof MediaTypeSchema>;

/** api-notes §1: for these two categories the first model is not a recommendation. */
export const UNRANKED_CATEGORIES: readonly string[] = ['image/default', 'video/text-ref'];

export const categoryKey = (c: { type: string; subType: string }) => `${c.type}/${c.subType}`;

export const isCategory = (type: string, subType: string): boolean =>
  CATEGORIES.some((c) => c.type === type && c.subType === subType);
