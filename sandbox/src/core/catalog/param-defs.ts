// Small builders for the param definitions the fixture repeats (api-notes §2 "Param definition").
// They only fill in the shape; every value the studio shows still reads at the call site.
import type { ParamDef, ParamOption } from '../../../../contract/param';
import type { TypicalPrice } from '../../../../contract/catalog';
import type { FixtureVersion, PricingRule } from './types';

type Extra = Partial<Omit<ParamDef, 'id' | 'type'>>;

export const param = (id: string, type: string, extra: Extra = {}): ParamDef => ({
  id,
  type,
  required: false,
  ...extra,
});

export const enumParam = (
  id: string,
  displayName: string | undefined,
  options: ParamOption[],
  defaultValue: string | number | boolean,
  extra: Extra = {},
): ParamDef =>
  param(id, 'enum', {
    ...(displayName === undefined ? {} : { displayName }),
    options,
    default: defaultValue,
    ...extra,
  });

/** Enum listed with enumValues instead of options (api-notes §2: "alternative listing of allowed values"). */
export const enumValuesParam = (
  id: string,
  displayName: string,
  values: string[],
  defaultValue: string,
  extra: Extra = {},
): ParamDef => param(id, 'enum', { displayName, enumValues: values, default: defaultValue, ...extra });

export const aspectRatio = (
  defaultValue: string,
  ratios: string[] = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9'],
): ParamDef =>
  param('aspect_ratio', 'aspect_ratio', {
    displayName: 'Aspect ratio',
    options: ratios,
    default: defaultValue,
  });

export const imageResolution = (defaultValue: string, values: string[] = ['512', '1K', '2K']): ParamDef =>
  param('resolution', 'resolution', { displayName: 'Resolution', options: values, default: defaultValue });

export const videoResolution = (
  defaultValue: string,
  values: string[] = ['480p', '720p', '1080p'],
): ParamDef =>
  param('resolution', 'resolution', { displayName: 'Resolution', options: values, default: defaultValue });

/** Output length in seconds; the pricing of duration-priced models reads it. */
export const duration = (values: string[], defaultValue: string): ParamDef =>
  param('duration', 'enum', {
    displayName: 'Duration',
    options: values.map((v) => ({ value: v, label: `${v} s` })),
    default: defaultValue,
  });

export const numImages = (max: number): ParamDef =>
  param('num_images', 'enum', {
    displayName: 'Number of images',
    options: Array.from({ length: max }, (_, i) => ({
      value: i + 1,
      label: i === 0 ? '1 image' : `${i + 1} images`,
    })),
    default: 1,
  });

/** An on/off enum, usually priced by a surcharge. */
export const toggle = (id: string, displayName: string | undefined, defaultValue: 'on' | 'off'): ParamDef =>
  enumParam(id, displayName, ['off', 'on'], defaultValue);

export const media = (
  id: string,
  type:
    | 'image'
    | 'image_url'
    | 'image_urls'
    | 'video_url'
    | 'audio_url'
    | 'first_frame'
    | 'last_frame'
    | 'mask_url',
  displayName: string,
  required: boolean,
  extra: Extra = {},
): ParamDef => param(id, type, { displayName, required, ...extra });

export const negativePrompt = (maxLength: number): ParamDef =>
  param('negative_prompt', 'long_text', {
    // Not "Negative prompt": a label containing "Prompt" would be ambiguous beside the prompt field itself.
    displayName: 'Things to avoid',
    description: 'What the result should avoid.',
    maxLength,
    default: '',
  });

export const version = (
  id: string,
  name: string,
  typicalPrice: TypicalPrice,
  pricing: PricingRule,
): FixtureVersion => ({ id, name, typicalPrice, pricing });

export const IMAGE_RES_MULTIPLIER = { '512': 0.5, '1K': 1, '2K': 1.5 };
export const VIDEO_RES_MULTIPLIER = { '480p': 0.6, '720p': 1, '1080p': 1.6 };

export const brandLogo = (brandId: string) => `/cdn/catalog/brands/${brandId}.png`;
export const voicePreview = (voiceId: string) => `/cdn/catalog/voices/${voiceId}.mp3`;
export const toolCover = (slug: string) => `/cdn/catalog/tools/${slug}.jpg`;
export const templateCover = (slug: string, kind: 'jpg' | 'mp4' = 'jpg') =>
  `/cdn/catalog/templates/${slug}.${kind}`;
