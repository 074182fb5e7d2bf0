import type { ReactNode } from 'react';
import type { ParamDef } from '../../../../contract/param';
import type { FormValue } from '../schema-builder';

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
  /** mask_url: the URL of the image being edited (the form's first image field), painted over. */
  sourceImage?: string;
  /** The form's prompt: it offers "Prompt library", and ArrowUp when empty recalls the last prompt. */
  isPrompt?: boolean;
}

export type FieldComponent = (props: ParamFieldProps) => ReactNode;
