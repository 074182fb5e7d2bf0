import type { ReactNode } from 'react';
import { Sparkles } from 'lucide-react';
import { cn } from '../lib/cn';

export function Header({ children }: { children?: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between gap-2 border-b border-slate-200 bg-white/85 px-3 sm:gap-4 sm:px-4 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
      <div className="flex items-center gap-2">
        <span className="grid size-8 place-items-center rounded-lg bg-indigo-600 text-white">
          <Sparkles className="size-4" aria-hidden="true" />
        </span>
        {/* With the studio's buttons, below lg the logo alone, so they fit on one line with it (at 768 px
            the name wrapped to two lines); on a phone always. The heading stays for assistive tech. */}
        {/* The studio's name, the same in every language. */}
        <h1
          translate="no"
          className={cn(
            'text-base font-semibold tracking-tight whitespace-nowrap',
            children ? 'max-lg:sr-only' : 'max-sm:sr-only',
          )}
        >
          Media Studio
        </h1>
      </div>
      <div className="flex items-center gap-1.5 sm:gap-2">{children}</div>
    </header>
  );
}
