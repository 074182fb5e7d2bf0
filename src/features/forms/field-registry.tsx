import type { KnownParamType } from '../../../contract/param';
import { AspectRatioField } from './fields/aspect-ratio-field';
import { EnumField } from './fields/enum-field';
import type { FieldComponent } from './fields/field-props';
import { MediaField } from './fields/media-field';
import { MaskField } from './fields/mask-field';
import { MediaListField } from './fields/media-list-field';
import { ResolutionField } from './fields/resolution-field';
import { LongTextField, TextField } from './fields/text-field';
import { UnknownTypeField } from './fields/unknown-type-field';
import { VoiceField } from './fields/voice-field';
import { isKnownParamType } from './schema-builder';

// PRODUCT 3 "The form engine": one field component per param type. A Record over the known types
// makes a forgotten type a compile error; the fallback keeps new server types from breaking a form.

export const fields: Record<KnownParamType, FieldComponent> = {
  enum: EnumField,
  text: TextField,
  long_text: LongTextField,
  aspect_ratio: AspectRatioField,
  resolution: ResolutionField,
  image: MediaField,
  image_url: MediaField,
  first_frame: MediaField,
  last_frame: MediaField,
  mask_url: MaskField,
  video_url: MediaField,
  audio_url: MediaField,
  image_urls: MediaListField,
  voice: VoiceField,
};

export const fieldFor = (type: string): FieldComponent =>
  isKnownParamType(type) ? fields[type] : UnknownTypeField;
