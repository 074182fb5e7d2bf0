import { useId } from 'react';
import { cn } from '../lib/cn';

interface SegmentOption {
  value: string;
  label: string;
  /** The label is the service's (a catalog option), not the studio's: never translated. */
  theirs?: boolean;
}

interface SegmentedProps {
  value: string | undefined;
  onChange: (value: string) => void;
  options: SegmentOption[];
  'aria-labelledby'?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  id?: string;
  disabled?: boolean;
}

/**
 * The native radio of one option, laid over the whole option (so a click anywhere on it is a click on
 * the radio), invisible: the option draws it, from the radio's state (`has-checked:`,
 * `has-focus-visible:`), and its text names it. Native radios of one name are one tab stop that the arrow keys move and check.
 * Not Radix's RadioGroup: inside a form, each of its radios measures itself as it mounts, a forced
 * layout and a second render in the task that shows the form (total blocking time, docs/benchmarks.md
 * "lighthouse").
 */
export function RadioInput({
  name,
  value,
  checked,
  disabled,
  onCheck,
  labelledBy,
}: {
  name: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  onCheck: () => void;
  /** The id of the option's text, its accessible name. */
  labelledBy: string;
}) {
  return (
    <input
      type="radio"
      name={name}
      value={value}
      aria-labelledby={labelledBy}
      checked={checked}
      disabled={disabled}
      onChange={(e) => {
        if (e.target.checked) onCheck();
      }}
      className="absolute inset-0 m-0 size-full cursor-pointer appearance-none rounded-[inherit] opacity-0 outline-none disabled:cursor-not-allowed"
    />
  );
}

/** A radio group drawn as joined buttons: arrow keys move, each option is a radio for assistive tech. */
export function Segmented({ value, onChange, options, disabled, ...aria }: SegmentedProps) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      {...aria}
      className="inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
    >
      {options.map((o, i) => (
        <span
          key={o.value}
          className={cn(
            'relative rounded-md px-3 py-1 text-sm font-medium text-slate-700 transition-colors dark:text-slate-300',
            'hover:bg-white/70 has-focus-visible:outline-2 has-focus-visible:outline-indigo-500 dark:hover:bg-slate-700',
            'has-checked:bg-white has-checked:text-slate-950 has-checked:shadow-sm',
            'dark:has-checked:bg-slate-950 dark:has-checked:text-white',
          )}
        >
          <RadioInput
            name={name}
            value={o.value}
            checked={value === o.value}
            disabled={disabled}
            onCheck={() => onChange(o.value)}
            labelledBy={`${name}-${i}`}
          />
          <span
            id={`${name}-${i}`}
            translate={o.theirs ? 'no' : undefined}
            dir={o.theirs ? 'auto' : undefined}
          >
            {o.label}
          </span>
        </span>
      ))}
    </div>
  );
}
