import type { ComponentProps } from 'react';
import { Search } from 'lucide-react';
import { cn } from '../lib/cn';
import { inputClass } from './field';

/** A search input with its magnifier icon; `className` styles the wrapper, the rest goes to the input. */
export function SearchField({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <div className={cn('relative', className)}>
      <Search
        className="pointer-events-none absolute top-1/2 start-2.5 size-4 -translate-y-1/2 text-slate-400"
        aria-hidden="true"
      />
      <input type="search" className={cn(inputClass, 'ps-8')} {...props} />
    </div>
  );
}
