import { Trans, useLingui } from '@lingui/react/macro';
import { Star } from 'lucide-react';
import { Button } from '../../components/button';
import { cn } from '../../lib/cn';

/** "Star" and the 1-5 rating (buttons named "1" to "5" in the group "Rating"). */
export function Judging({
  starred,
  rating,
  onStar,
  onRate,
}: {
  starred: boolean;
  rating: number | null;
  onStar: () => void;
  onRate: (rating: number | null) => void;
}) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button aria-pressed={starred} onClick={onStar} title={t`Star (S)`}>
        <Star className={cn('size-4', starred && 'fill-amber-400 text-amber-500')} aria-hidden="true" />
        <Trans>Star</Trans>
      </Button>
      <div role="group" aria-label={t`Rating`} className="flex items-center gap-0.5">
        {[1, 2, 3, 4, 5].map((r) => (
          <button
            key={r}
            type="button"
            aria-pressed={rating === r}
            title={t({
              message: `Rate ${r} of 5 (key ${r})`,
              comment: 'The rating, then the keyboard key that gives it',
            })}
            onClick={() => onRate(rating === r ? null : r)}
            className={cn(
              'grid size-8 place-items-center rounded-md text-sm font-semibold ring-1 ring-slate-300 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-500 dark:ring-slate-600',
              rating !== null && r <= rating
                ? 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100'
                : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
            )}
          >
            {r}
          </button>
        ))}
      </div>
    </div>
  );
}
