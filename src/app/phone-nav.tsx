import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { GitCompareArrows, Images, SquarePen, type LucideIcon } from 'lucide-react';
import { cn } from '../lib/cn';

// The phone layout's navigation (docs/phone.md): three destinations in a bar at the bottom, in reach of
// a thumb. Create is the form; Results the gallery, running tasks first; Compare the boards.

export type Destination = 'create' | 'results' | 'compare';

const DESTINATIONS: Array<{ id: Destination; label: MessageDescriptor; icon: LucideIcon }> = [
  { id: 'create', label: msg({ message: 'Create', comment: 'phone navigation: the form' }), icon: SquarePen },
  {
    id: 'results',
    label: msg({ message: 'Results', comment: 'phone navigation: the gallery' }),
    icon: Images,
  },
  {
    id: 'compare',
    label: msg({ message: 'Compare', comment: 'phone navigation: the compare boards' }),
    icon: GitCompareArrows,
  },
];

export function PhoneNav({
  current,
  onGo,
  draftCount,
}: {
  /** The destination shown; null on a screen outside the three (Usage). */
  current: Destination | null;
  onGo: (destination: Destination) => void;
  /** Models added with "Add to comparison", waiting for the next new board. */
  draftCount: number | null;
}) {
  const { i18n, t } = useLingui();
  return (
    <nav
      aria-label={t`Destinations`}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur dark:border-slate-800 dark:bg-slate-950/95"
    >
      <ul className="grid grid-cols-3">
        {DESTINATIONS.map(({ id, label, icon: Icon }) => {
          const here = current === id;
          return (
            <li key={id}>
              <button
                type="button"
                aria-current={here ? 'page' : undefined}
                onClick={() => onGo(id)}
                className={cn(
                  'flex h-16 w-full flex-col items-center justify-center gap-1 text-xs font-medium focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-indigo-500',
                  here
                    ? 'text-indigo-700 dark:text-indigo-300'
                    : 'text-slate-600 active:bg-slate-100 dark:text-slate-400 dark:active:bg-slate-900',
                )}
              >
                <span
                  className={cn(
                    'relative grid h-7 w-14 place-items-center rounded-full',
                    here && 'bg-indigo-100 dark:bg-indigo-950',
                  )}
                >
                  <Icon className="size-5" aria-hidden="true" />
                  {id === 'compare' && draftCount ? (
                    <span className="absolute -top-1 end-1 rounded-full bg-indigo-600 px-1.5 text-[11px] leading-4 text-white tabular-nums">
                      <DraftCount count={draftCount} />
                    </span>
                  ) : null}
                </span>
                {i18n._(label)}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The count alone on screen; "(2 models added)" in the button's name. */
export function DraftCount({ count }: { count: number }) {
  return (
    <Trans>
      <span className="sr-only">(</span>
      {count}
      <span className="sr-only">
        {' '}
        <Plural value={count} one="model added" other="models added" />)
      </span>
    </Trans>
  );
}
