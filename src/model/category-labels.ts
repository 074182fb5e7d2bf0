import {
  CATEGORIES,
  UNRANKED_CATEGORIES,
  categoryKey,
  type Category,
  type ModelType,
} from '../../contract/category';

// Readable names for the 13 public categories of api-notes §1 (GET /models needs one type x subType pair).

/** "image/edit-image" and the 12 other pairs, as a type: a Record over it makes a missing label a compile error. */
export type CategoryKey = Category extends infer C
  ? C extends { type: infer T extends string; subType: infer S extends string }
    ? `${T}/${S}`
    : never
  : never;

export const DEFAULT_CATEGORY: CategoryKey = 'image/default';

const TYPE_LABELS: Record<ModelType, string> = { image: 'Image', video: 'Video', audio: 'Audio' };

/** Short name of each subType, and its purpose as api-notes §1 words it. */
const CATEGORY_INFO: Record<CategoryKey, { name: string; purpose: string }> = {
  'image/default': { name: 'Generate', purpose: 'Text-to-image, image-to-image and prompt-driven edits.' },
  'image/edit-image': { name: 'Edit image', purpose: 'Region edits driven by a mask or an annotation.' },
  'image/image-svg': { name: 'Vector (SVG)', purpose: 'Vector (SVG) graphics from text or an image.' },
  'video/text-ref': { name: 'Text to video', purpose: 'Text-to-video; reference images guide the style.' },
  'video/motion-control': {
    name: 'Motion control',
    purpose: 'An image animated with the motion of a reference video.',
  },
  'video/first-last-frame': {
    name: 'First & last frame',
    purpose: 'An image as the start frame, with an optional end frame.',
  },
  'video/audio-lipsync': { name: 'Lip-sync', purpose: 'A character image lip-synced to audio.' },
  'video/extend-video': { name: 'Extend video', purpose: 'New frames appended after an existing video.' },
  'video/video-edit': { name: 'Edit video', purpose: 'Restyle or edit an existing video.' },
  'audio/text-to-speech': { name: 'Text to speech', purpose: 'Speech in a named voice.' },
  'audio/voice-clone': { name: 'Voice clone', purpose: 'Speech in a voice cloned from a sample.' },
  'audio/sound-effect': { name: 'Sound effect', purpose: 'Sound effects from text.' },
  'audio/music': { name: 'Music', purpose: 'Music from text.' },
};

const CATEGORY_KEYS: readonly CategoryKey[] = CATEGORIES.map((c) => categoryKey(c) as CategoryKey);

export const isCategoryKey = (key: string | undefined): key is CategoryKey =>
  key !== undefined && Object.hasOwn(CATEGORY_INFO, key);

export function parseCategory(key: string | undefined): Category | undefined {
  return CATEGORIES.find((c) => categoryKey(c) === key);
}

/** "Image · Edit image"; an unknown key is shown as it is. */
export function categoryLabel(key: string): string {
  const category = parseCategory(key);
  if (!category || !isCategoryKey(key)) return key;
  return `${TYPE_LABELS[category.type]} · ${CATEGORY_INFO[key].name}`;
}

export const categoryPurpose = (key: string): string | undefined =>
  isCategoryKey(key) ? CATEGORY_INFO[key].purpose : undefined;

/** api-notes §1: outside image/default and video/text-ref the first model listed is the recommended default. */
export const isRankedCategory = (key: string): boolean => !UNRANKED_CATEGORIES.includes(key);

/** The categories grouped by type, in spec order, for <optgroup>s. */
export const CATEGORY_GROUPS: ReadonlyArray<{ type: ModelType; label: string; keys: CategoryKey[] }> = (
  Object.keys(TYPE_LABELS) as ModelType[]
).map((type) => ({
  type,
  label: TYPE_LABELS[type],
  keys: CATEGORY_KEYS.filter((k) => k.startsWith(`${type}/`)),
}));
