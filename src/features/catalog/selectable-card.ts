import { cn } from '../../lib/cn';
import type { Selection } from '../../model/selection';

/**
 * The look of every selectable catalog card (a <button>): calm at rest, a ring on hover and focus,
 * and an indigo ring with a tint once selected (aria-current="true").
 */
export const selectableCardClass = (extra?: string) =>
  cn(
    'group w-full min-w-0 rounded-xl bg-white text-start ring-1 ring-slate-200 transition',
    'hover:ring-slate-300 hover:shadow-sm dark:bg-slate-900 dark:ring-slate-800 dark:hover:ring-slate-700',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500',
    'aria-[current=true]:bg-indigo-50/60 aria-[current=true]:ring-2 aria-[current=true]:ring-indigo-500',
    'dark:aria-[current=true]:bg-indigo-950/40 dark:aria-[current=true]:ring-indigo-400',
    extra,
  );

/** The selected state and the click of a tool's or a template's card: both are chosen by slug. */
export const slugCard =
  (selection: Selection | null, kind: 'tool' | 'template', onSelect: (selection: Selection) => void) =>
  (slug: string) => ({
    selected: selection?.kind === kind && selection.slug === slug,
    onSelect: () => onSelect({ kind, slug }),
  });
