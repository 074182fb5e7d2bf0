import { useLingui } from '@lingui/react/macro';
import { useMemo, useSyncExternalStore } from 'react';
import { Button } from '../../components/button';
import { EarlierTeamTasks, type EarlierSource } from '../../components/history/earlier-team-tasks';
import { dayStartOfKey, nextDayStart } from '../../lib/local-day';
import {
  monthBefore,
  monthDays,
  monthOfFilter,
  type GalleryFilter,
} from '../../model/gallery/gallery-filter';
import { monthName } from './gallery-filter-panel';

// The grid's end in a team space whose earlier tasks the server keeps: the team's earlier tasks of the
// dates shown, read from the range's end (not from today's: a month two years back shows its tasks at
// once, without paging through the two years between), and with a whole month shown, the way on to the
// month before (a team's month may hold tens of thousands of tasks: it need not be read to its start
// first): the team's years, a month at a time, in order.

/** The stretch of time the filter's dates are, as the team's earlier tasks are read: local days. */
function rangeOf(from: string, to: string): { until?: number; since?: number } {
  const end = to ? nextDayStart(dayStartOfKey(to)) : Number.NaN;
  const start = from ? dayStartOfKey(from) : Number.NaN;
  return {
    ...(Number.isFinite(end) ? { until: end } : {}),
    ...(Number.isFinite(start) ? { since: start } : {}),
  };
}

export function GalleryEarlier({
  source,
  filter,
  onFilter,
  paused = false,
}: {
  source: EarlierSource;
  filter: GalleryFilter;
  onFilter: (f: GalleryFilter) => void;
  /** The grid is still catching up with its store: its end in view reads nothing now. */
  paused?: boolean;
}) {
  const { t, i18n } = useLingui();
  const { from, to } = filter;
  const reader = useMemo(() => source.within?.(rangeOf(from, to)) ?? source, [source, from, to]);
  const state = useSyncExternalStore(reader.subscribe, reader.snapshot);
  const month = monthOfFilter(filter);
  const before = month ? monthBefore(month) : '';
  const beforeName = before ? monthName(before, i18n.locale) : '';
  return (
    <>
      <EarlierTeamTasks source={reader} inRange={from !== '' || to !== ''} paused={paused} />
      {before && state.exists && (
        <div className="flex justify-center pb-3">
          <Button size="sm" onClick={() => onFilter({ ...filter, ...monthDays(before) })}>
            {t({ message: `Go on to ${beforeName}`, comment: 'beforeName: a month and year, "March 2026"' })}
          </Button>
        </div>
      )}
    </>
  );
}
