import type { ReactNode } from 'react';
import type { FieldControlProps } from '../../../components/field';
import type { MediaKind } from '../media/media-kinds';
import type { MediaInputProps } from '../media/media-input';
import type { ParamFieldProps } from './field-props';
import { paramDescription, useParamLabel, type ParamLabel } from './param-label';

export interface MediaFieldWiring {
  label: ParamLabel;
  /** The kind of file the param takes (its type's entry in param-types.tsx). */
  kind: MediaKind;
  /** The props of the Field or FieldGroup around the control: label, help, error, required. */
  frame: { label: ReactNode; description: ReactNode; error?: string; required: boolean };
  /** The props of the MediaInput inside it, given the frame's control ids. */
  input: (control: FieldControlProps) => MediaInputProps;
}

/** The wiring every media field makes from its param props: one place for the four media fields. */
export function useMediaField({
  def,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  baseUrl,
  onHostedUrl,
  disabled,
  media,
}: ParamFieldProps): MediaFieldWiring {
  const label = useParamLabel(def);
  const kind = media?.kind ?? 'image';
  return {
    label,
    kind,
    frame: { label: label.node, description: paramDescription(def), error, required: def.required },
    input: (control) => ({
      // Named by the frame's label, described by its help and error.
      control,
      label,
      // What the type takes.
      kind,
      recordable: media?.recordable,
      // The field's value and the form's handlers.
      value: typeof value === 'string' ? value : '',
      onChange,
      onBlur,
      inputRef,
      baseUrl,
      onHostedUrl,
      disabled,
    }),
  };
}
