import type { ReactNode } from 'react';
import type { ParamDef } from '../../../../contract/param';
import type { MediaKind } from '../media/media-kinds';
import type { FormValue } from '../param-rules';

/** A media param type's facts, from its entry in param-types.tsx. */
export interface ParamMedia {
  /** The kind of file it takes (accepted types, the library's shelf). */
  kind: MediaKind;
  /** Offers recording from the microphone (voice samples). */
  recordable?: boolean;
  /**
   * "Use as input" (product-notes §3): an output of this kind fills the first empty field of the lowest rank
   * (then the first such field); a type with no rank never takes outputs.
   */
  inputRank?: number;
  /** The mask painter: a 'source' field holds the image it paints over (the form's first), 'mask' paints. */
  mask?: 'source' | 'mask';
}

export interface Focusable {
  focus: () => void;
}

/** What every param field receives: its definition and a controlled value, nothing form-library specific. */
export interface ParamFieldProps {
  def: ParamDef;
  value: FormValue;
  onChange: (value: FormValue) => void;
  onBlur: () => void;
  /** Given the field's focus target, so the form can focus a field in error. */
  inputRef?: (target: Focusable | null) => void;
  error?: string;
  /** The API base URL: media fields say which URLs are accepted. */
  baseUrl: string;
  /** Media fields report the URL of each finished upload (a URL the service says it hosts). */
  onHostedUrl?: (url: string) => void;
  disabled?: boolean;
  /** The media facts of the param's type (param-types.tsx); undefined for other types. */
  media?: ParamMedia;
  /** mask_url: the URL of the image being edited (the form's first image field), painted over. */
  sourceImage?: string;
  /** The form's prompt: it offers "Prompt library", and ArrowUp when empty recalls the last prompt. */
  isPrompt?: boolean;
}

export type FieldComponent = (props: ParamFieldProps) => ReactNode;
