import type { ReactNode } from 'react';
import { Sparkles } from 'lucide-react';

export function Header({ children }: { children?: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between gap-2 border-b border-slate-200 bg-white/85 px-3 sm:gap-4 sm:px-4 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
      <div className="flex items-center gap-2">
        <span className="grid size-8 place-items-center rounded-lg bg-indigo-600 text-white">
          <Sparkles className="size-4" aria-hidden="true" />
        </span>
        {/* On a phone the logo alone, so the header's buttons fit; the heading stays for assistive tech. */}
        <h1 className="text-base font-semibold tracking-tight max-sm:sr-only">Media Studio</h1>
      </div>
      <div className="flex items-center gap-1.5 sm:gap-2">{children}</div>
    </header>
  );
}
