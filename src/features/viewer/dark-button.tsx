import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A button of the Viewer's dark stage: an icon named by its label (also its tooltip), pressed or not. */
export function DarkButton({
  label,
  onClick,
  disabled,
  pressed,
  children,
  ...rest
}: {
  label: string;
  onClick?: () => void;
  disabled?: boolean;
  pressed?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        'grid size-9 place-items-center rounded-lg text-slate-100 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-indigo-400 disabled:opacity-40',
        pressed && 'bg-white/15',
      )}
      {...rest}
    >
      {children}
    </button>
  );
}
