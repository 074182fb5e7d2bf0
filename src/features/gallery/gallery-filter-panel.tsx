import { Trans, useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { MediaTypeSelect, ModelSelect, StatusSelect } from '../../components/history/filter-selects';
import { Select } from '../../components/select';
import { cn } from '../../lib/cn';
import { formatCount } from '../../lib/format';
import { reviewStateWord } from '../../components/history/review-control';
import { categoryLabel } from '../../model/category-labels';
import { REVIEW_STATES } from '../../model/history/reviews';
import { modelOptions } from '../../model/search/history-filter';
import type { HistoryEntry } from '../../model/history/history-types';
import {
  NO_GALLERY_FILTER,
  categoryOptions,
  isGalleryFiltering,
  monthChoices,
  monthDays,
  monthOfFilter,
  type GalleryFilter,
} from '../../model/gallery/gallery-filter';

/**
 * The Gallery's "Filters" panel: status, media type, model, category, rating, review, dates, starred,
 * hidden.
 */
export function GalleryFilterPanel({
  id,
  entries,
  filter,
  onFilter,
  hiddenCount,
  teamOn,
}: {
  id: string;
  entries: HistoryEntry[];
  filter: GalleryFilter;
  onFilter: (f: GalleryFilter) => void;
  hiddenCount: number;
  /** The team space is on: the "Team picks" filter is offered. */
  teamOn: boolean;
}) {
  const { t } = useLingui();
  const models = useMemo(() => modelOptions(entries), [entries]);
  const categories = useMemo(() => categoryOptions(entries), [entries]);
  const set = (patch: Partial<GalleryFilter>) => onFilter({ ...filter, ...patch });
  const hiddenTasks = formatCount(hiddenCount);
  return (
    <div
      id={id}
      className="grid grid-cols-2 items-end gap-2 rounded-lg bg-white p-3 ring-1 ring-slate-200 sm:grid-cols-3 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto_auto] xl:grid-cols-[repeat(7,minmax(0,1fr))_auto_auto] dark:bg-slate-900 dark:ring-slate-800"
    >
      <StatusSelect value={filter.status} onChange={(status) => set({ status })} />
      <MediaTypeSelect value={filter.mediaType} onChange={(mediaType) => set({ mediaType })} />
      <ModelSelect value={filter.model} onChange={(model) => set({ model })} models={models} />
      <Select
        aria-label={t`Category filter`}
        value={filter.category}
        onChange={(e) => set({ category: e.target.value })}
      >
        <option value="all">{t`All categories`}</option>
        {categories.map((c) => (
          <option key={c} value={c}>
            {categoryLabel(c)}
          </option>
        ))}
        {filter.category !== 'all' && !categories.includes(filter.category) && (
          <option value={filter.category}>{categoryLabel(filter.category)}</option>
        )}
      </Select>
      <Select
        aria-label={t`Minimum rating`}
        value={String(filter.minRating)}
        onChange={(e) => set({ minRating: Number(e.target.value) })}
      >
        <option value="0">{t`Any rating`}</option>
        {[1, 2, 3, 4, 5].map((r) => (
          <option key={r} value={r}>
            {r === 5 ? t`5 only` : t`${r} or more`}
          </option>
        ))}
      </Select>
      <Select
        aria-label={t({ message: 'Review', comment: 'a filter: the state of the outputs’ latest review' })}
        value={filter.review}
        onChange={(e) => set({ review: e.target.value as GalleryFilter['review'] })}
      >
        <option value="all">
          {t({ message: 'Any review', comment: 'the Review filter: any review or none' })}
        </option>
        {REVIEW_STATES.map((state) => (
          <option key={state} value={state}>
            {reviewStateWord(state)}
          </option>
        ))}
        <option value="none">{t`Not reviewed`}</option>
      </Select>
      <MonthChoice entries={entries} filter={filter} onFilter={onFilter} />
      <div className="col-span-2 grid grid-cols-2 gap-2 sm:col-span-1">
        <DateBound
          label={t({ message: 'From', comment: 'the first day of a date range' })}
          value={filter.from}
          max={filter.to}
          onChange={(from) => set({ from })}
        />
        <DateBound
          label={t({ message: 'To', comment: 'the last day of a date range' })}
          value={filter.to}
          min={filter.from}
          onChange={(to) => set({ to })}
        />
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={filter.starred}
            onChange={(e) => set({ starred: e.target.checked })}
            className="size-4 accent-indigo-600"
          />
          <Trans>Starred only</Trans>
        </label>
        {teamOn && (
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={filter.teamPicks}
              onChange={(e) => set({ teamPicks: e.target.checked })}
              className="size-4 accent-indigo-600"
            />
            <Trans>Team picks</Trans>
          </label>
        )}
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={filter.showHidden}
            onChange={(e) => set({ showHidden: e.target.checked })}
            className="size-4 accent-indigo-600"
          />
          <Trans>Show hidden tasks ({hiddenTasks})</Trans>
        </label>
      </div>
      <Button
        variant="ghost"
        className="justify-self-start whitespace-nowrap"
        onClick={() => onFilter({ ...NO_GALLERY_FILTER, sort: filter.sort })}
        disabled={!isGalleryFiltering(filter) && !filter.showHidden}
      >
        <X className="size-4" aria-hidden="true" />
        <Trans>Clear filters</Trans>
      </Button>
    </div>
  );
}

/**
 * A whole month as the date range, in one choice: the way back through a team's years (the grid reads the
 * team's earlier tasks of the range from its end, GalleryView).
 */
function MonthChoice({
  entries,
  filter,
  onFilter,
}: {
  entries: HistoryEntry[];
  filter: GalleryFilter;
  onFilter: (f: GalleryFilter) => void;
}) {
  const { t, i18n } = useLingui();
  // The month the panel opened in: a panel left open over midnight at a month's end offers the old one.
  const [now] = useState(() => Date.now());
  const months = useMemo(() => monthChoices(entries, now), [entries, now]);
  const month = monthOfFilter(filter);
  const custom = !month && (filter.from !== '' || filter.to !== '');
  return (
    <label className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
      {t({ message: 'Month', comment: 'a choice of one whole month as the date range' })}
      <Select
        value={custom ? 'dates' : month}
        onChange={(e) =>
          onFilter({ ...filter, ...(e.target.value ? monthDays(e.target.value) : { from: '', to: '' }) })
        }
      >
        <option value="">{t`Any month`}</option>
        {custom && (
          <option value="dates" disabled>
            {t`The dates below`}
          </option>
        )}
        {months.map((m) => (
          <option key={m} value={m}>
            {monthName(m, i18n.locale)}
          </option>
        ))}
        {month && !months.includes(month) && <option value={month}>{monthName(month, i18n.locale)}</option>}
      </Select>
    </label>
  );
}

/** "March 2026", in the studio's language. */
export function monthName(month: string, locale: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    Date.UTC(y, m - 1, 15),
  );
}

/** One end of the date range: a labelled date field, bounded by the other end when it is set. */
function DateBound({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-400">
      {label}
      <input
        type="date"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(e) => onChange(e.target.value)}
        className={cn(inputClass, 'px-1.5 dark:scheme-dark')}
      />
    </label>
  );
}
