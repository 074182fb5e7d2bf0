import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Boxes, LayoutTemplate, Search, Wand2, X } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { memo, useId, useState } from 'react';
import { shortcutFor } from '../../components/shortcuts';
import { inputClass } from '../../components/field';
import { cn } from '../../lib/cn';
import type { Selection } from '../../model/selection';
import { CatalogOfflineHint } from './catalog-offline';
import { AiToolsTab, type ToolFilter } from './ai-tools-tab';
import { searchTerms } from './catalog-search';
import { DEFAULT_CATEGORY, isCategoryKey, type CategoryKey } from '../../model/category-labels';
import { ModelsTab } from './models-tab';
import { TemplatesTab } from './templates-tab';
import { useResolvedSelection } from './use-resolved-selection';

// The catalog column (product-notes §3 "Catalog"): models by category, AI tools, templates, one search box.
// It is not a landmark itself: the app shell puts it in its own <nav aria-label="Catalog">.
// The active tab, category and tool filter are component state, not URL state: the URL belongs to the
// selection (?model=&version=, ?tool=, ?template=), which the app shell owns, and the tab follows it
// whenever the selection changes from outside (a link, a remix).

export interface CatalogPanelProps {
  selection: Selection | null;
  onSelect: (selection: Selection) => void;
  className?: string;
}

type TabValue = 'models' | 'tools' | 'templates';

const TAB_FOR_KIND: Record<Selection['kind'], TabValue> = {
  model: 'models',
  tool: 'tools',
  template: 'templates',
};

const isTabValue = (value: string): value is TabValue =>
  value === 'models' || value === 'tools' || value === 'templates';

const PLACEHOLDERS: Record<TabValue, MessageDescriptor> = {
  models: msg`Name, brand, tag or description`,
  tools: msg`Name, tag or summary`,
  templates: msg`Name, tag or summary`,
};

const triggerClass = cn(
  'inline-flex min-w-0 items-center justify-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium transition-colors',
  'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100',
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500',
  'data-[state=active]:bg-white data-[state=active]:text-slate-950 data-[state=active]:shadow-sm',
  'dark:data-[state=active]:bg-slate-950 dark:data-[state=active]:text-white',
);

/** Memoised: the workspace re-renders with every change of the form and the quote, the catalog need not. */
export const CatalogPanel = memo(function CatalogPanel({
  selection,
  onSelect,
  className,
}: CatalogPanelProps) {
  const { t, i18n } = useLingui();
  const searchId = useId();
  const [query, setQuery] = useState('');
  const [toolFilter, setToolFilter] = useState<ToolFilter>('all');

  // A model linked without its category is located by scanning the catalog (shared with the form's lookup).
  const needsLookup = selection?.kind === 'model' && !isCategoryKey(selection.category) ? selection : null;
  const lookup = useResolvedSelection(needsLookup);
  const selectedCategory: CategoryKey | undefined =
    selection?.kind === 'model'
      ? isCategoryKey(selection.category)
        ? selection.category
        : lookup.resolved?.kind === 'model'
          ? toCategoryKey(lookup.resolved.model)
          : undefined
      : undefined;

  const [tab, setTab] = useState<TabValue>(selection ? TAB_FOR_KIND[selection.kind] : 'models');
  const [category, setCategory] = useState<CategoryKey>(selectedCategory ?? DEFAULT_CATEGORY);

  // Follow the selection when it changes from outside: show its tab and its category (adjusting
  // state during render, as React recommends, rather than in an effect that would paint twice).
  const selectionKind = selection?.kind;
  const [seenKind, setSeenKind] = useState(selectionKind);
  if (seenKind !== selectionKind) {
    setSeenKind(selectionKind);
    if (selectionKind) setTab(TAB_FOR_KIND[selectionKind]);
  }
  const [seenCategory, setSeenCategory] = useState(selectedCategory);
  if (seenCategory !== selectedCategory) {
    setSeenCategory(selectedCategory);
    if (selectedCategory) setCategory(selectedCategory);
  }

  const terms = searchTerms(query);
  // The ids that tie each tab to its panel (Radix's own are internal: these replace them on the triggers).
  const baseId = useId();
  const triggerId = (value: TabValue) => `${baseId}-tab-${value}`;
  const panelId = (value: TabValue) => `${baseId}-panel-${value}`;
  const tabIds = (value: TabValue) => ({ id: triggerId(value), 'aria-controls': panelId(value) });
  const clearSearch = () => setQuery('');

  return (
    <div className={cn('@container flex min-w-0 flex-col', className)}>
      <Tabs.Root
        value={tab}
        onValueChange={(value) => {
          if (isTabValue(value)) setTab(value);
        }}
        className="flex min-w-0 flex-col gap-3"
      >
        <Tabs.List
          aria-label={t`Catalog sections`}
          className="grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800/80"
        >
          <Tabs.Trigger value="models" className={triggerClass} {...tabIds('models')}>
            <Boxes className="hidden size-4 shrink-0 @sm:block" aria-hidden="true" />
            <span className="truncate">
              <Trans>Models</Trans>
            </span>
          </Tabs.Trigger>
          <Tabs.Trigger value="tools" className={triggerClass} {...tabIds('tools')}>
            <Wand2 className="hidden size-4 shrink-0 @sm:block" aria-hidden="true" />
            <span className="truncate">
              <Trans>AI tools</Trans>
            </span>
          </Tabs.Trigger>
          <Tabs.Trigger value="templates" className={triggerClass} {...tabIds('templates')}>
            <LayoutTemplate className="hidden size-4 shrink-0 @sm:block" aria-hidden="true" />
            <span className="truncate">
              <Trans>Templates</Trans>
            </span>
          </Tabs.Trigger>
        </Tabs.List>

        <CatalogOfflineHint />
        <div role="search" className="relative">
          <label htmlFor={searchId} className="sr-only">
            <Trans>Search catalog</Trans>
          </label>
          <Search
            className="pointer-events-none absolute top-1/2 start-3 size-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (shortcutFor(['studio.clearSearch'], e) && query) {
                e.preventDefault();
                clearSearch();
              }
            }}
            placeholder={i18n._(PLACEHOLDERS[tab])}
            autoComplete="off"
            spellCheck={false}
            className={cn(inputClass, 'pe-9 ps-9 [&::-webkit-search-cancel-button]:hidden')}
          />
          {query && (
            <button
              type="button"
              onClick={clearSearch}
              aria-label={t`Clear search`}
              className="absolute top-1/2 end-2 -translate-y-1/2 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800 dark:hover:text-slate-200"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )}
        </div>

        {/* The open tab's panel, drawn here rather than with Tabs.Content: Radix's Presence there reads the
            panel's computed style as it mounts, a forced layout of the whole catalog (it is a size
            container) in the task that shows the studio (total blocking time, docs/benchmarks.md
            "lighthouse"). */}
        <div
          role="tabpanel"
          id={panelId(tab)}
          aria-labelledby={triggerId(tab)}
          data-state="active"
          tabIndex={0}
          className="min-w-0 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
        >
          {tab === 'models' ? (
            <ModelsTab
              selection={selection}
              onSelect={onSelect}
              category={category}
              onCategoryChange={setCategory}
              terms={terms}
              onClearSearch={clearSearch}
            />
          ) : tab === 'tools' ? (
            <AiToolsTab
              selection={selection}
              onSelect={onSelect}
              filter={toolFilter}
              onFilterChange={setToolFilter}
              terms={terms}
              onClearSearch={clearSearch}
            />
          ) : (
            <TemplatesTab
              selection={selection}
              onSelect={onSelect}
              terms={terms}
              onClearSearch={clearSearch}
            />
          )}
        </div>
      </Tabs.Root>
    </div>
  );
});

function toCategoryKey(model: { type: string; subType: string }): CategoryKey | undefined {
  const key = `${model.type}/${model.subType}`;
  return isCategoryKey(key) ? key : undefined;
}
