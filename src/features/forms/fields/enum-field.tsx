import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { Field } from '../../../components/field';
import { FieldGroup } from '../../../components/field-group';
import { Segmented } from '../../../components/segmented';
import { Select } from '../../../components/select';
import { allowsUnset, choicesOf, fitsSegmented, keyOf, UNSET_KEY, valueOf, type Choice } from './choices';
import type { ParamFieldProps } from './field-props';
import { groupFocusRef, paramDescription, useParamLabel } from './param-label';
import { TextField } from './text-field';

/** Radix radio items cannot carry an empty value. */
const UNSET_SEGMENT = '__unset__';

/** A native select of the choices (any number, long labels), with "Not set" when the field may be empty. */
export function ChoiceSelect({ choices, ...props }: ParamFieldProps & { choices: readonly Choice[] }) {
  const { def, value, onChange, onBlur, inputRef, error, disabled } = props;
  const { t } = useLingui();
  const label = useParamLabel(def);
  const current = keyOf(choices, value);
  const unset = allowsUnset(def) || current === UNSET_KEY;
  return (
    <Field label={label.node} description={paramDescription(def)} error={error} required={def.required}>
      {(control) => (
        <Select
          {...control}
          ref={inputRef}
          value={current}
          disabled={disabled}
          onChange={(e) => onChange(valueOf(choices, e.target.value))}
          onBlur={onBlur}
        >
          {unset && (
            <option value={UNSET_KEY}>
              {current === UNSET_KEY && !allowsUnset(def) ? t`Choose…` : t`Not set`}
            </option>
          )}
          {choices.map((c) => (
            <option key={c.key} value={c.key} translate="no">
              {c.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/** All choices at once as a segmented radio group, inside a fieldset named by the label. */
export function ChoiceSegmented({ choices, ...props }: ParamFieldProps & { choices: readonly Choice[] }) {
  const { def, value, onChange, inputRef, error, disabled } = props;
  const { t } = useLingui();
  const label = useParamLabel(def);
  const unset = allowsUnset(def);
  const current = keyOf(choices, value);
  const options = [
    ...(unset ? [{ value: UNSET_SEGMENT, label: t`Not set` }] : []),
    ...choices.map((c) => ({ value: c.key, label: c.label, theirs: true })),
  ];
  return (
    <FieldGroup label={label.node} description={paramDescription(def)} error={error} required={def.required}>
      {(control) => (
        <div ref={groupFocusRef(inputRef)}>
          <Segmented
            aria-labelledby={label.id}
            aria-describedby={control['aria-describedby']}
            value={current === UNSET_KEY ? (unset ? UNSET_SEGMENT : undefined) : current}
            onChange={(key) => onChange(key === UNSET_SEGMENT ? '' : valueOf(choices, key))}
            options={options}
            disabled={disabled}
          />
        </div>
      )}
    </FieldGroup>
  );
}

/**
 * enum: options as strings or {value, label} (or enumValues). A segmented control for a few short
 * options, a native select otherwise; the option's own value (string, number or boolean) is sent.
 */
export function EnumField(props: ParamFieldProps) {
  const choices = useMemo(() => choicesOf(props.def), [props.def]);
  // No listed values: nothing to choose from, so the value is typed.
  if (choices.length === 0) return <TextField {...props} />;
  return fitsSegmented(choices) ? (
    <ChoiceSegmented {...props} choices={choices} />
  ) : (
    <ChoiceSelect {...props} choices={choices} />
  );
}
