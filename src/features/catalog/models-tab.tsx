import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo } from 'react';
import { useApi } from '../../api/api-context';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { Model } from '../../../contract/catalog';
import { CATEGORIES, categoryKey } from '../../../contract/category';
import { toApiError } from '../../api/errors';
import { Alert } from '../../components/alert';
import { ServiceMessage } from '../../components/service-message';
import { Button } from '../../components/button';
import { inputClass } from '../../components/field';
import { Spinner } from '../../components/spinner';
import type { Selection } from '../../model/selection';
import {
  CATEGORY_GROUPS,
  categoryLabel,
  categoryPurpose,
  isCategoryKey,
  isRankedCategory,
  parseCategory,
  type CategoryKey,
} from '../../model/category-labels';
import { matchesSearch, modelSearchFields } from './catalog-search';
import { CatalogList, type CatalogListProps } from './catalog-list';
import { CatalogError, CatalogLoading } from './catalog-states';
import { ModelCard } from './model-card';
import { formatList } from '../../lib/format';

export interface ModelsTabProps {
  selection: Selection | null;
  onSelect: (selection: Selection) => void;
  category: CategoryKey;
  onCategoryChange: (category: CategoryKey) => void;
  /** Lower-cased search words; with any, every category is searched. */
  terms: readonly string[];
  onClearSearch: () => void;
}

interface ModelEntry {
  model: Model;
  category: string;
  recommended: boolean;
}
/** What differs between the category's list and the search's. */
type ListProps = Omit<CatalogListProps<ModelEntry>, 'items' | 'keyOf' | 'children' | 'columns'>;

/** A category's list with api-notes §1's ranking applied: its first model is recommended unless unranked. */
const entriesOf = (category: string, models: readonly Model[]): ModelEntry[] =>
  models.map((model, index) => ({
    model,
    category,
    recommended: index === 0 && isRankedCategory(category),
  }));

export function ModelsTab({
  selection,
  onSelect,
  category,
  onCategoryChange,
  terms,
  onClearSearch,
}: ModelsTabProps) {
  const { t } = useLingui();
  const { client, connectionId } = useApi();
  const selectId = useId();
  const searching = terms.length > 0;
  const current = parseCategory(category) ?? CATEGORIES[0];

  const list = useQuery(catalogQueries.models(client, connectionId, current.type, current.subType));
  // The cards of an answer are rendered as a transition (to keep total blocking time low): the render
  // that the answer itself causes is cheap (still "Loading", or the cards already shown), the cards follow
  // in slices. The answer is deferred with its category, so a card is never listed under another one.
  const shown = useDeferredValue(useMemo(() => ({ category, data: list.data }), [category, list.data]));
  // api-notes §8: GET /models has no rate limit, and a search must find a model in any category.
  const everywhere = useQueries({
    queries: CATEGORIES.map((c) => ({
      ...catalogQueries.models(client, connectionId, c.type, c.subType),
      enabled: searching,
    })),
  });

  const selectedModel = selection?.kind === 'model' ? selection : null;
  const select = (entry: ModelEntry) => {
    const { model } = entry;
    const first = model.versions[0]?.id;
    // Choosing the model already open keeps the version picked in its form.
    const versionId = selectedModel?.modelId === model.id ? (selectedModel.versionId ?? first) : first;
    onSelect({
      kind: 'model',
      modelId: model.id,
      ...(versionId ? { versionId } : {}),
      category: entry.category,
    });
  };

  const entryList = (entries: readonly ModelEntry[], more: ListProps) => (
    <CatalogList
      items={entries}
      keyOf={(entry) => `${entry.category}:${entry.model.id}`}
      columns="grid-cols-1 @2xl:grid-cols-2"
      {...more}
    >
      {(entry) => (
        <ModelCard
          model={entry.model}
          recommended={entry.recommended}
          selected={selectedModel?.modelId === entry.model.id}
          selectedVersionId={selectedModel?.versionId ?? entry.model.versions[0]?.id}
          categoryLabel={more.search ? categoryLabel(entry.category) : undefined}
          onSelect={() => select(entry)}
        />
      )}
    </CatalogList>
  );

  let body;
  if (searching) {
    const loaded = everywhere.flatMap((q, i) => {
      const c = CATEGORIES[i];
      return c && q.data ? entriesOf(categoryKey(c), q.data.items) : [];
    });
    const hits = loaded.filter((e) => matchesSearch(modelSearchFields(e.model), terms));
    const matches = hits.length;
    const pending = everywhere.some((q) => q.isPending);
    const failed = everywhere.flatMap((q, i) =>
      q.isError && CATEGORIES[i] ? [{ q, c: CATEGORIES[i] }] : [],
    );
    const skipped = everywhere.reduce((n, q) => n + (q.data?.skipped.length ?? 0), 0);
    const failure = failed[0] ? toApiError(failed[0].q.error) : undefined;
    const notSearched = formatList(failed.map((f) => categoryLabel(categoryKey(f.c))));
    body = (
      <>
        <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
          {pending ? (
            <span className="inline-flex items-center gap-1.5">
              <Spinner className="size-3" /> <Trans>Searching all 13 categories…</Trans>
            </span>
          ) : (
            <Plural
              value={matches}
              one="# model matches across all categories."
              other="# models match across all categories."
            />
          )}
        </p>
        {failure && (
          <Alert tone="warning" title={failure.message}>
            {failure.remedy && <p>{failure.remedy}</p>}
            <ServiceMessage text={failure.serverMessage} />
            <p>
              <Trans>Not searched: {notSearched}.</Trans>
            </p>
            <Button size="sm" className="mt-2" onClick={() => failed.forEach((f) => void f.q.refetch())}>
              <Trans>Try again</Trans>
            </Button>
          </Alert>
        )}
        {entryList(hits, {
          search: {
            terms,
            onClear: onClearSearch,
            // While categories load, or when some failed (the alert says so), no "nothing matches".
            noMatch: pending || failure ? null : t`No model matches your search in any category.`,
          },
          skipped,
        })}
      </>
    );
  } else if (list.isError) {
    body = <CatalogError error={list.error} onRetry={() => void list.refetch()} />;
  } else if (list.isPending || !shown.data) {
    body = <CatalogLoading label={t`Loading models…`} />;
  } else {
    body = entryList(entriesOf(shown.category, shown.data.items), {
      none: t`No models are available in this category yet.`,
      skipped: shown.data.skipped,
    });
  }

  const purpose = categoryPurpose(category);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          <Trans>Category</Trans>
        </label>
        <select
          id={selectId}
          value={category}
          onChange={(e) => {
            if (isCategoryKey(e.target.value)) onCategoryChange(e.target.value);
          }}
          aria-describedby={purpose ? `${selectId}-purpose` : undefined}
          className={inputClass}
        >
          {CATEGORY_GROUPS.map((group) => (
            <optgroup key={group.type} label={group.label}>
              {group.keys.map((key) => (
                <option key={key} value={key}>
                  {categoryLabel(key)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {purpose && (
          <p id={`${selectId}-purpose`} className="text-xs text-slate-500 dark:text-slate-400">
            {searching ? t`The search looks through every category.` : purpose}
          </p>
        )}
      </div>
      {body}
    </div>
  );
}
