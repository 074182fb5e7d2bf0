import { useMemo } from 'react';
import { choicesOf, fitsSegmented } from './choices';
import { ChoiceSegmented, ChoiceSelect } from './enum-field';
import type { ParamFieldProps } from './field-props';
import { TextField } from './text-field';

/** resolution: a segmented control ("512 · 1K · 2K"), a select only for a long list. */
export function ResolutionField(props: ParamFieldProps) {
  const choices = useMemo(() => choicesOf(props.def), [props.def]);
  if (choices.length === 0) return <TextField {...props} />;
  return fitsSegmented(choices, 6, 20) ? (
    <ChoiceSegmented {...props} choices={choices} />
  ) : (
    <ChoiceSelect {...props} choices={choices} />
  );
}
