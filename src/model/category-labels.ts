import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  CATEGORIES,
  UNRANKED_CATEGORIES,
  categoryKey,
  type Category,
  type ModelType,
} from '../../contract/category';

// Readable names for the 13 public categories of api-notes §1 (GET /models needs one type x subType pair),
// as message descriptors read in the studio's language when shown (docs/i18n.md).

/** "image/edit-image" and the 12 other pairs, as a type: a Record over it makes a missing label a compile error. */
export type CategoryKey = Category extends infer C
  ? C extends { type: infer T extends string; subType: infer S extends string }
    ? `${T}/${S}`
    : never
  : never;

export const DEFAULT_CATEGORY: CategoryKey = 'image/default';

const TYPE_LABELS: Record<ModelType, MessageDescriptor> = {
  image: msg({ message: 'Image', comment: 'media type of a catalog category' }),
  video: msg({ message: 'Video', comment: 'media type of a catalog category' }),
  audio: msg({ message: 'Audio', comment: 'media type of a catalog category' }),
};

/** Short name of each subType, and its purpose as api-notes §1 words it. */
const CATEGORY_INFO: Record<CategoryKey, { name: MessageDescriptor; purpose: MessageDescriptor }> = {
  'image/default': {
    name: msg({ message: 'Generate', comment: 'catalog category: image generation' }),
    purpose: msg`Text-to-image, image-to-image and prompt-driven edits.`,
  },
  'image/edit-image': {
    name: msg`Edit image`,
    purpose: msg`Region edits driven by a mask or an annotation.`,
  },
  'image/image-svg': { name: msg`Vector (SVG)`, purpose: msg`Vector (SVG) graphics from text or an image.` },
  'video/text-ref': {
    name: msg`Text to video`,
    purpose: msg`Text-to-video; reference images guide the style.`,
  },
  'video/motion-control': {
    name: msg`Motion control`,
    purpose: msg`An image animated with the motion of a reference video.`,
  },
  'video/first-last-frame': {
    name: msg`First & last frame`,
    purpose: msg`An image as the start frame, with an optional end frame.`,
  },
  'video/audio-lipsync': { name: msg`Lip-sync`, purpose: msg`A character image lip-synced to audio.` },
  'video/extend-video': {
    name: msg`Extend video`,
    purpose: msg`New frames appended after an existing video.`,
  },
  'video/video-edit': { name: msg`Edit video`, purpose: msg`Restyle or edit an existing video.` },
  'audio/text-to-speech': { name: msg`Text to speech`, purpose: msg`Speech in a named voice.` },
  'audio/voice-clone': { name: msg`Voice clone`, purpose: msg`Speech in a voice cloned from a sample.` },
  'audio/sound-effect': { name: msg`Sound effect`, purpose: msg`Sound effects from text.` },
  'audio/music': { name: msg`Music`, purpose: msg`Music from text.` },
};

const CATEGORY_KEYS: readonly CategoryKey[] = CATEGORIES.map((c) => categoryKey(c) as CategoryKey);

export const isCategoryKey = (key: string | undefined): key is CategoryKey =>
  key !== undefined && Object.hasOwn(CATEGORY_INFO, key);

export function parseCategory(key: string | undefined): Category | undefined {
  return CATEGORIES.find((c) => categoryKey(c) === key);
}

/** A media type as a category names it: "Image", "Video", "Audio". */
export const typeLabel = (type: ModelType): string => i18n._(TYPE_LABELS[type]);

/** "Image · Edit image"; an unknown key is shown as it is. */
export function categoryLabel(key: string): string {
  const category = parseCategory(key);
  if (!category || !isCategoryKey(key)) return key;
  return `${i18n._(TYPE_LABELS[category.type])} · ${i18n._(CATEGORY_INFO[key].name)}`;
}

export const categoryPurpose = (key: string): string | undefined =>
  isCategoryKey(key) ? i18n._(CATEGORY_INFO[key].purpose) : undefined;

/** api-notes §1: outside image/default and video/text-ref the first model listed is the recommended default. */
export const isRankedCategory = (key: string): boolean => !UNRANKED_CATEGORIES.includes(key);

/** The categories grouped by type, in spec order, for <optgroup>s; `label` is read when shown. */
export const CATEGORY_GROUPS: ReadonlyArray<{
  type: ModelType;
  readonly label: string;
  keys: CategoryKey[];
}> = (Object.keys(TYPE_LABELS) as ModelType[]).map((type) => ({
  type,
  get label() {
    return i18n._(TYPE_LABELS[type]);
  },
  keys: CATEGORY_KEYS.filter((k) => k.startsWith(`${type}/`)),
}));
