import type { KnownParamType } from '../../../contract/param';
import { AspectRatioField } from './fields/aspect-ratio-field';
import { EnumField } from './fields/enum-field';
import type { FieldComponent, ParamFieldProps, ParamMedia } from './fields/field-props';
import { MaskField } from './fields/mask-field';
import { MediaField } from './fields/media-field';
import { MediaListField } from './fields/media-list-field';
import { ResolutionField } from './fields/resolution-field';
import { LongTextField, TextField } from './fields/text-field';
import { UnknownTypeField } from './fields/unknown-type-field';
import { VoiceField } from './fields/voice-field';
import {
  choiceRule,
  mediaListRule,
  mediaRule,
  textRule,
  unknownRule,
  voiceRule,
  type Rule,
} from './param-rules';

// Everything the studio knows of a param type (product-notes §3 "The form engine"), one entry per type.
//
// To add a type: add its name to KNOWN_PARAM_TYPES in contract/param.ts; the compiler then asks for its
// entry here (the Record below is over every known type). Pick or write its field (fields/), its rule
// (param-rules.ts), what the form holds, and for a media type its `media` facts. The unit test
// param-types.test.tsx renders every entry's field and checks its rule against its empty value.
// A type the server sends that is not known gets UNKNOWN_TYPE: a text field with a note, so a new
// server type never breaks a form.

export interface ParamType {
  /** The field that edits it. */
  field: FieldComponent;
  /** The check of its value. */
  rule: Rule;
  /**
   * How the form holds its value: free text, one of the definition's options (a value from elsewhere
   * is matched to the option's own value, so "2" becomes 2), or a list of URLs (empty: []).
   */
  holds: 'text' | 'choice' | 'list';
  /** A media type's facts: the file it takes, recording, "Use as input", the mask painter. */
  media?: ParamMedia;
}

const PARAM_TYPES: Record<KnownParamType, ParamType> = {
  enum: { field: EnumField, rule: choiceRule, holds: 'choice' },
  aspect_ratio: { field: AspectRatioField, rule: choiceRule, holds: 'choice' },
  resolution: { field: ResolutionField, rule: choiceRule, holds: 'choice' },
  text: { field: TextField, rule: textRule, holds: 'text' },
  long_text: { field: LongTextField, rule: textRule, holds: 'text' },
  // The image types' ranks keep first frames ahead of edits, and masks last, for "Use as input".
  first_frame: {
    field: MediaField,
    rule: mediaRule,
    holds: 'text',
    media: { kind: 'image', inputRank: 1, mask: 'source' },
  },
  image: {
    field: MediaField,
    rule: mediaRule,
    holds: 'text',
    media: { kind: 'image', inputRank: 2, mask: 'source' },
  },
  image_url: {
    field: MediaField,
    rule: mediaRule,
    holds: 'text',
    media: { kind: 'image', inputRank: 3, mask: 'source' },
  },
  image_urls: {
    field: MediaListField,
    rule: mediaListRule,
    holds: 'list',
    media: { kind: 'image', inputRank: 4 },
  },
  last_frame: { field: MediaField, rule: mediaRule, holds: 'text', media: { kind: 'image', inputRank: 5 } },
  mask_url: {
    field: MaskField,
    rule: mediaRule,
    holds: 'text',
    media: { kind: 'image', inputRank: 6, mask: 'mask' },
  },
  video_url: { field: MediaField, rule: mediaRule, holds: 'text', media: { kind: 'video', inputRank: 1 } },
  audio_url: {
    field: MediaField,
    rule: mediaRule,
    holds: 'text',
    media: { kind: 'audio', recordable: true, inputRank: 1 },
  },
  // api-notes §2 counts voice among the media types: one of the voices, or a hosted audio file.
  voice: {
    field: VoiceField,
    rule: voiceRule,
    holds: 'choice',
    media: { kind: 'audio', recordable: true, inputRank: 2 },
  },
};

/**
 * Any type the studio does not know.
 * @internal
 */
export const UNKNOWN_TYPE: ParamType = { field: UnknownTypeField, rule: unknownRule, holds: 'text' };

export const isKnownParamType = (type: string): type is KnownParamType => Object.hasOwn(PARAM_TYPES, type);

export const paramTypeOf = (type: string): ParamType =>
  isKnownParamType(type) ? PARAM_TYPES[type] : UNKNOWN_TYPE;

/** The field of one param, given its type's media facts: how a form (and a compare board) renders a param. */
export function ParamField(props: Omit<ParamFieldProps, 'media'>) {
  const { field: Component, media } = paramTypeOf(props.def.type);
  return <Component {...props} media={media} />;
}
