import { useId, type ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
}

interface FieldProps {
  label: ReactNode;
  /** Help text under the label (untrusted catalog text is fine: rendered as text). */
  description?: ReactNode;
  error?: string;
  required?: boolean;
  /** Right-aligned note beside the label, e.g. a character counter. */
  aside?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
  className?: string;
}

/** Label, help, error and counter around one control, wired with ids for screen readers. */
export function Field({ label, description, error, required, aside, children, className }: FieldProps) {
  const id = useId();
  const descId = description ? `${id}-desc` : undefined;
  const errId = error ? `${id}-err` : undefined;
  const describedBy = [descId, errId].filter(Boolean).join(' ') || undefined;
  const control = children({
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
  });
  const head = (
    <div className="flex items-baseline justify-between gap-2">
      <span className="flex items-baseline">
        {/* The required mark sits outside the label so the field's accessible name is the label alone. */}
        <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {label}
        </label>
        {required && (
          <span className="ms-0.5 text-sm text-rose-600 dark:text-rose-400" aria-hidden="true">
            *
          </span>
        )}
      </span>
      {aside && <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400">{aside}</span>}
    </div>
  );
  const body = (
    <>
      {head}
      {description && (
        <p id={descId} className="text-xs text-slate-500 dark:text-slate-400">
          {description}
        </p>
      )}
      {control}
      {error && (
        <p id={errId} role="alert" className="text-xs font-medium text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
    </>
  );
  return <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>{body}</div>;
}

export const inputClass = cn(
  'block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300',
  'placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none',
  'aria-[invalid=true]:ring-rose-500 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700',
  'disabled:cursor-not-allowed disabled:opacity-60',
);
