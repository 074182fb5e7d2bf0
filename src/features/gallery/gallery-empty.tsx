import { Images } from 'lucide-react';
import type { ReactNode } from 'react';

/** What the Gallery shows instead of the grid: no outputs yet, or none that match the filters. */
export function GalleryEmpty({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-16 text-center dark:border-slate-700">
      <Images className="size-7 text-slate-400 dark:text-slate-500" aria-hidden="true" />
      <p className="text-sm font-medium">{title}</p>
      <div className="text-sm text-slate-600 dark:text-slate-400">{children}</div>
    </div>
  );
}
