import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';
import { ParamField } from './param-types';
import { emptyValue, normaliseValue, toParamValue } from './schema-builder';

export interface ParamInputProps {
  def: ParamDef;
  /** The request value (undefined: not set, so the model's own default applies). */
  value: ParamValue | undefined;
  onChange: (value: ParamValue | undefined) => void;
  baseUrl: string;
}

/**
 * One param field outside a ParamForm (compare boards): the registry's field for the type, holding a
 * request value rather than a form value. An unset field shows empty, so each model's default applies.
 */
export function ParamInput({ def, value, onChange, baseUrl }: ParamInputProps) {
  return (
    <ParamField
      def={def}
      value={normaliseValue(def, value) ?? emptyValue(def)}
      onChange={(next) => onChange(toParamValue(def, next))}
      onBlur={() => undefined}
      baseUrl={baseUrl}
    />
  );
}
