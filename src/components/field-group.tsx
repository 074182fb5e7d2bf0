import { useId, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import type { FieldControlProps } from './field';

interface FieldGroupProps {
  label: ReactNode;
  description?: ReactNode;
  error?: string;
  required?: boolean;
  /** Right-aligned note beside the legend, e.g. a count; not part of the group's name. */
  aside?: ReactNode;
  /** `labelId` is the legend's id, for aria-labelledby on a radio group or an input inside. */
  children: (control: FieldControlProps, labelId: string) => ReactNode;
  className?: string;
}

/**
 * Field's twin for groups of controls (radio groups, a URL input with its upload button): a fieldset
 * whose legend is its first child, so the group is named by it, with help, error and aside as in Field.
 */
export function FieldGroup({
  label,
  description,
  error,
  required,
  aside,
  children,
  className,
}: FieldGroupProps) {
  const id = useId();
  const labelId = `${id}-legend`;
  const descId = description ? `${id}-desc` : undefined;
  const errId = error ? `${id}-err` : undefined;
  const describedBy = [descId, errId].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={cn('min-w-0', className)} aria-describedby={describedBy}>
      {/* Floated, the legend is laid out like a label (not drawn on the fieldset's border), and the
          aside floats beside it; the legend stays the first child, so it still names the group. */}
      <legend
        id={labelId}
        className="float-start mb-1.5 max-w-full text-sm font-medium text-slate-800 dark:text-slate-200"
      >
        {label}
      </legend>
      {/* Outside the legend, so the group's accessible name is the label alone. */}
      {required && (
        <span className="float-start ms-0.5 text-sm text-rose-600 dark:text-rose-400" aria-hidden="true">
          *
        </span>
      )}
      {aside !== undefined && (
        <span className="float-end ms-2 text-xs text-slate-500 tabular-nums dark:text-slate-400">
          {aside}
        </span>
      )}
      <div className="clear-both flex flex-col gap-1.5">
        {description && (
          <p id={descId} className="text-xs text-slate-500 dark:text-slate-400">
            {description}
          </p>
        )}
        {children(
          {
            id,
            'aria-describedby': describedBy,
            'aria-invalid': error ? true : undefined,
            'aria-required': required || undefined,
          },
          labelId,
        )}
        {error && (
          <p id={errId} role="alert" className="text-xs font-medium text-rose-700 dark:text-rose-400">
            {error}
          </p>
        )}
      </div>
    </fieldset>
  );
}
