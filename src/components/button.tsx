import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

// `cn` only joins strings, so a class passed in `className` that sets the same property as a variant
// (a text colour, a padding, a height) does not reliably win: which one applies depends on the order of
// Tailwind's stylesheet, not of the list. Looks that differ are therefore variants and sizes here,
// never overrides at the call site.
type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'starred';
type Size = 'sm' | 'md' | 'lg' | 'icon-sm' | 'icon';

const VARIANTS: Record<Variant, string> = {
  // White text keeps 4.5:1 in every state: indigo-400 (a lighter hover in dark) would drop it to 3.1.
  primary:
    'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:bg-indigo-600/50 dark:bg-indigo-500 dark:hover:bg-indigo-600',
  secondary:
    'bg-white text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600 dark:hover:bg-slate-700',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
  // rose-500 under white text is 3.8:1: danger stays on rose-600 and darkens on hover.
  danger: 'bg-rose-600 text-white hover:bg-rose-700',
  // A ghost toggle that is on, in the stars' amber (a favourite): amber-700 keeps 4.5:1 on white.
  starred: 'text-amber-700 hover:bg-slate-100 dark:text-amber-400 dark:hover:bg-slate-800',
};
const SIZES: Record<Size, string> = {
  sm: 'h-8 gap-1.5 px-2.5 text-sm',
  md: 'h-9 gap-2 px-3.5 text-sm',
  lg: 'h-11 gap-2 px-5 text-base',
  /** A square button holding only an icon (give it an aria-label): 28 by 28 px. */
  'icon-sm': 'size-7 text-sm',
  /** A square icon button as tall as an input: 36 by 36 px. */
  icon: 'size-9 text-sm',
};

// React 19: `ref` is an ordinary prop of a function component (no forwardRef).
export interface ButtonProps extends ComponentProps<'button'> {
  variant?: Variant;
  size?: Size;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  className,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-lg font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500',
        'disabled:cursor-not-allowed disabled:opacity-60',
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...props}
    />
  );
}
