import { RadioGroup } from 'radix-ui';
import { cn } from '../lib/cn';

export interface SegmentOption {
  value: string;
  label: string;
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

/** A radio group drawn as joined buttons: arrow keys move, each option is a radio for assistive tech. */
export function Segmented({ value, onChange, options, disabled, ...aria }: SegmentedProps) {
  return (
    <RadioGroup.Root
      {...aria}
      value={value ?? ''}
      onValueChange={onChange}
      disabled={disabled}
      orientation="horizontal"
      className="inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
    >
      {options.map((o) => (
        <RadioGroup.Item
          key={o.value}
          value={o.value}
          className={cn(
            'rounded-md px-3 py-1 text-sm font-medium text-slate-700 transition-colors dark:text-slate-300',
            'hover:bg-white/70 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-700',
            'data-[state=checked]:bg-white data-[state=checked]:text-slate-950 data-[state=checked]:shadow-sm',
            'dark:data-[state=checked]:bg-slate-950 dark:data-[state=checked]:text-white',
          )}
        >
          {o.label}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
