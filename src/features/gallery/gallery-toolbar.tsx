import { Trans, useLingui } from '@lingui/react/macro';
import { SlidersHorizontal } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../components/button';
import { MemberSelect } from '../../components/history/filter-selects';
import { HistorySearch } from '../../components/search/history-search';
import { Segmented } from '../../components/segmented';
import { Select } from '../../components/select';
import { memberOptions } from '../../model/search/history-filter';
import type { HistoryEntry } from '../../model/history/history-types';
import {
  SORTS,
  SORT_LABELS,
  isGalleryFiltering,
  type GalleryFilter,
  type GallerySort,
} from '../../model/gallery/gallery-filter';
import { GalleryFilterPanel } from './gallery-filter-panel';
import type { TileSize } from './tile-size';
import { GroupBatchesToggle } from '../../components/history/group-batches-toggle';

/** The Gallery's heading and count, search, member, sort, "Group batches", "Filters" and the tile size. */
export function GalleryToolbar({
  entries,
  filter,
  onFilter,
  tileSize,
  onTileSize,
  hiddenCount,
  teamOn,
  grouped,
  onGrouped,
  count,
  countOf,
}: {
  entries: HistoryEntry[];
  filter: GalleryFilter;
  onFilter: (f: GalleryFilter) => void;
  tileSize: TileSize;
  onTileSize: (size: TileSize) => void;
  hiddenCount: number;
  /** The team space is on: the "Team picks" filter is offered. */
  teamOn: boolean;
  /** "Group batches": each batch one stack. */
  grouped: boolean;
  onGrouped: (on: boolean) => void;
  count: string;
  /** How many outputs a saved search matches now. */
  countOf: (query: string) => number;
}) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(() => isGalleryFiltering({ ...filter, query: '' }));
  const members = useMemo(() => memberOptions(entries), [entries]);
  const set = (patch: Partial<GalleryFilter>) => onFilter({ ...filter, ...patch });
  const active = [
    filter.status !== 'all',
    filter.mediaType !== 'all',
    filter.model !== 'all',
    filter.category !== 'all',
    filter.starred,
    filter.minRating > 0,
    filter.from !== '',
    filter.to !== '',
    filter.showHidden,
    filter.teamPicks,
    filter.review !== 'all',
  ].filter(Boolean).length;
  const panelId = 'gallery-filters';

  return (
    <div role="search" aria-label={t`Filter gallery`} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-start gap-2">
        <h2 className="text-base font-semibold">
          <Trans>Gallery</Trans>
        </h2>
        <span
          className="text-xs text-slate-600 tabular-nums dark:text-slate-400"
          aria-live="polite"
          data-testid="gallery-count"
        >
          {count}
        </span>
        <HistorySearch
          className="min-w-40 flex-1 sm:max-w-md"
          value={filter.query}
          onChange={(query) => set({ query })}
          entries={entries}
          countOf={countOf}
        />
        {(members.length > 0 || (filter.member ?? 'all') !== 'all') && (
          <MemberSelect
            className="w-40"
            value={filter.member ?? 'all'}
            onChange={(member) => set({ member })}
            members={members}
          />
        )}
        <Select
          aria-label={t`Sort`}
          value={filter.sort}
          onChange={(e) => set({ sort: e.target.value as GallerySort })}
          className="w-40"
        >
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {i18n._(SORT_LABELS[s])}
            </option>
          ))}
        </Select>
        <GroupBatchesToggle checked={grouped} onChange={onGrouped} />
        <Button aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
          <SlidersHorizontal className="size-4" aria-hidden="true" />
          <Trans>Filters</Trans>
          {active > 0 && (
            <span className="rounded-full bg-indigo-600 px-1.5 text-xs text-white tabular-nums">
              <Trans>
                <span className="sr-only">(</span>
                {active}
                <span className="sr-only"> active)</span>
              </Trans>
            </span>
          )}
        </Button>
        <div className="flex items-center gap-2 sm:ms-auto">
          <span id="tile-size-label" className="text-xs text-slate-600 dark:text-slate-400">
            <Trans>Tile size</Trans>
          </span>
          <Segmented
            aria-labelledby="tile-size-label"
            value={tileSize}
            onChange={(v) => onTileSize(v as TileSize)}
            options={[
              { value: 'small', label: t({ message: 'S', comment: 'tile size: small' }) },
              { value: 'medium', label: t({ message: 'M', comment: 'tile size: medium' }) },
              { value: 'large', label: t({ message: 'L', comment: 'tile size: large' }) },
            ]}
          />
        </div>
      </div>
      {open && (
        <GalleryFilterPanel
          id={panelId}
          entries={entries}
          filter={filter}
          onFilter={onFilter}
          hiddenCount={hiddenCount}
          teamOn={teamOn}
        />
      )}
    </div>
  );
}
