import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import { useApi } from '../../api/api-context';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { AiTool } from '../../../contract/catalog';
import type { MediaType } from '../../../contract/category';
import { Segmented } from '../../components/segmented';
import { formatTypicalPrice } from '../../lib/format';
import type { Selection } from '../../model/selection';
import { CatalogText, CoverMedia, TagList } from './catalog-media';
import { matchesSearch, toolSearchFields } from './catalog-search';
import { CatalogList } from './catalog-list';
import { CatalogError, CatalogLoading } from './catalog-states';
import { selectableCardClass, slugCard } from './selectable-card';

export type ToolFilter = 'all' | MediaType;

const FILTERS: Array<{ value: ToolFilter; label: MessageDescriptor }> = [
  { value: 'all', label: msg`All` },
  { value: 'image', label: msg`Image` },
  { value: 'video', label: msg`Video` },
];

const isToolFilter = (value: string): value is ToolFilter => FILTERS.some((f) => f.value === value);

export interface AiToolsTabProps {
  selection: Selection | null;
  onSelect: (selection: Selection) => void;
  filter: ToolFilter;
  onFilterChange: (filter: ToolFilter) => void;
  terms: readonly string[];
  onClearSearch: () => void;
}

export function AiToolsTab({
  selection,
  onSelect,
  filter,
  onFilterChange,
  terms,
  onClearSearch,
}: AiToolsTabProps) {
  const { t, i18n } = useLingui();
  const { client, connectionId } = useApi();
  // The filter is the service's own: GET /ai-tools?type=image|video, nothing for All (api-notes §4).
  const list = useQuery(catalogQueries.aiTools(client, connectionId, filter === 'all' ? undefined : filter));
  const cardOf = slugCard(selection, 'tool', onSelect);

  let body;
  if (list.isPending) {
    body = <CatalogLoading label={t`Loading AI tools…`} />;
  } else if (list.isError) {
    body = <CatalogError error={list.error} onRetry={() => void list.refetch()} />;
  } else {
    const tools = list.data.items.filter((t) => matchesSearch(toolSearchFields(t), terms));
    body = (
      <CatalogList
        items={tools}
        keyOf={(tool) => tool.slug}
        columns="grid-cols-1 @2xl:grid-cols-2"
        search={{ terms, onClear: onClearSearch, noMatch: t`No AI tool matches your search.` }}
        none={
          filter === 'all'
            ? t`No AI tools are available.`
            : filter === 'image'
              ? t`No AI tools are available for image.`
              : t`No AI tools are available for video.`
        }
        skipped={list.data.skipped}
      >
        {(tool) => <AiToolCard tool={tool} {...cardOf(tool.slug)} />}
      </CatalogList>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <Segmented
        aria-label={t`AI tool type`}
        value={filter}
        onChange={(value) => {
          if (isToolFilter(value)) onFilterChange(value);
        }}
        options={FILTERS.map((f) => ({ value: f.value, label: i18n._(f.label) }))}
      />
      {body}
    </div>
  );
}

function AiToolCard({ tool, selected, onSelect }: { tool: AiTool; selected: boolean; onSelect: () => void }) {
  const price = formatTypicalPrice(tool.typicalPrice);
  return (
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      className={selectableCardClass('flex gap-3 p-2.5')}
    >
      <span className="relative aspect-video w-24 shrink-0 self-start overflow-hidden rounded-lg">
        <CoverMedia url={tool.coverUrl} />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex min-w-0 items-start gap-2">
          <CatalogText
            text={tool.name}
            className="line-clamp-2 flex-1 text-sm font-semibold text-slate-900 dark:text-slate-50"
          />
          {selected && (
            <Check
              className="mt-0.5 size-4 shrink-0 text-indigo-600 dark:text-indigo-400"
              aria-hidden="true"
            />
          )}
        </span>
        {tool.summary && (
          <CatalogText
            text={tool.summary}
            className="line-clamp-2 text-xs leading-relaxed text-slate-600 dark:text-slate-400"
          />
        )}
        <TagList tags={tool.tags} max={3} />
        {price && <span className="text-xs text-slate-600 tabular-nums dark:text-slate-400">{price}</span>}
      </span>
    </button>
  );
}
