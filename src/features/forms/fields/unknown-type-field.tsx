import { Trans } from '@lingui/react/macro';
import { Info } from 'lucide-react';
import type { ParamFieldProps } from './field-props';
import { TextField } from './text-field';

/**
 * Any type the studio does not know: a plain text input with a visible note, so a new server type
 * never breaks a form (product-notes §3). The value is sent as typed (a number when the def's default or
 * min/max say it is one).
 */
export function UnknownTypeField(props: ParamFieldProps) {
  const { type } = props.def;
  return (
    <TextField
      {...props}
      note={
        <span className="mt-1 flex items-center gap-1 text-amber-700 dark:text-amber-400">
          <Info className="size-3.5 shrink-0" aria-hidden="true" />
          <span>
            <Trans>unrecognised parameter type {type}</Trans>
          </span>
        </span>
      }
    />
  );
}
