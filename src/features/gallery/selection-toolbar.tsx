import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Columns2, Columns3, Eye, EyeOff, Star } from 'lucide-react';
import { type ReactNode } from 'react';
import { Button } from '../../components/button';
import { notify, notifyError, notifyUndo } from '../../components/notices';
import { formatCount } from '../../lib/format';
import { categoryLabel } from '../../model/category-labels';
import type { ComparePair } from '../../model/gallery/compare-pair';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import type { Judgements } from '../../model/history/judgements';
import { ReviewButtons } from '../../components/history/review-control';
import { AddTag } from '../../components/search/tag-control';
import { useSearchStores } from '../../components/search/search-stores';
import { REVIEW_STATES, type ReviewState } from '../../model/history/reviews';
import { useOptionalStore } from '../../lib/use-optional-store';
import { useGalleryData } from './gallery-context';

// The Gallery's selection toolbar (product-notes §3 "Gallery and viewer"): what a selection of tiles can do
// at once: star, review, hide or show again, add their models to Compare, Compare two, and the app's own
// actions.

/** A model to add to Compare (product-notes §3: "Add to comparison" sends the selection's models). */
export interface ComparisonModel {
  category: string;
  modelId: string;
  versionId: string;
}

export function SelectionToolbar({
  size,
  selected,
  hiddenIds,
  judged,
  compareTarget,
  onCompare,
  onAddToComparison,
  extraActions,
  onClear,
}: {
  /** How many tiles are selected. */
  size: number;
  /** The selected tiles, in the shown order. */
  selected: GalleryItem[];
  hiddenIds: ReadonlySet<string>;
  judged: Judgements;
  /** What "Compare two" opens for this selection; null disables it. */
  compareTarget: ComparePair | null;
  onCompare: (pair: ComparePair) => void;
  onAddToComparison: (models: ComparisonModel[]) => void;
  /** More buttons, given the selected tiles: the app puts "Download selected" here. */
  extraActions?: (selected: GalleryItem[]) => ReactNode;
  onClear: () => void;
}) {
  const { t } = useLingui();
  // What the selection acts on; without this member's reviews no Review is offered.
  const { judgements, hidden, reviews } = useGalleryData();
  const selectedCount = formatCount(size);
  const taskIdsOf = (list: GalleryItem[]) => [...new Set(list.map((i) => i.entry.taskId))];
  // A write that fails is told by the store itself (the change is made on screen and will be gone after a
  // reload): the tasks are hidden or shown again all the same, so that is what the notices say.
  const kept = () => undefined;
  const hideSelected = () => {
    const ids = taskIdsOf(selected).filter((id) => !hiddenIds.has(id));
    hidden.hide(ids).catch(kept);
    onClear();
    const tasks = ids.length;
    const count = formatCount(tasks);
    notifyUndo(
      plural(tasks, {
        one: `${count} task hidden on this device.`,
        other: `${count} tasks hidden on this device.`,
      }),
      () => hidden.unhide(ids).catch(kept),
      {
        undone: plural(tasks, {
          one: `${count} task shown again.`,
          other: `${count} tasks shown again.`,
        }),
      },
    );
  };
  const showSelected = () => {
    const ids = taskIdsOf(selected).filter((id) => hiddenIds.has(id));
    hidden.unhide(ids).catch(kept);
    const tasks = ids.length;
    const count = formatCount(tasks);
    notify(plural(tasks, { one: `${count} task shown again.`, other: `${count} tasks shown again.` }));
  };
  const starSelected = () => {
    const withOutput = selected.filter((i) => i.output);
    const allStarred = withOutput.every((i) => judged.get(i.key)?.starred);
    void judgements.setStarred(
      withOutput.map((i) => i.key),
      !allStarred,
    );
  };
  const withOutput = selected.filter((i) => i.output).map((i) => i.key);
  const searchStores = useSearchStores();
  const myReviews = useOptionalStore(reviews, undefined);
  // Pressed when every selected output has this member's review of that state; pressing it then takes
  // their reviews back.
  const reviewed = (state: ReviewState) =>
    withOutput.length > 0 && withOutput.every((key) => myReviews?.get(key)?.state === state);
  const reviewState = REVIEW_STATES.find(reviewed) ?? null;
  const reviewSelected = (state: ReviewState) => {
    if (!reviews) return;
    void (state === reviewState ? reviews.clear(withOutput) : reviews.setMany(withOutput, state));
  };
  const addToComparison = () => {
    const models = new Map<string, ComparisonModel>();
    for (const { entry } of selected) {
      const { category, modelId, versionId, kind } = entry.meta;
      if (kind === 'model' && category && modelId && versionId)
        models.set(`${modelId}|${versionId}`, { category, modelId, versionId });
    }
    const list = [...models.values()];
    if (list.length === 0) {
      notifyError(t`None of the selected outputs was made by a model: nothing to compare.`);
      return;
    }
    // Compare runs one category at a time: the one most of the selection is in.
    const counts = new Map<string, number>();
    for (const m of list) counts.set(m.category, (counts.get(m.category) ?? 0) + 1);
    const category = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const chosen = list.filter((m) => m.category === category).slice(0, 8);
    onAddToComparison(chosen);
    const left = list.length - chosen.length;
    const categoryName = categoryLabel(category);
    const added = chosen.length;
    notify(
      left
        ? plural(added, {
            one: `Added # model of ${categoryName} to the comparison: open Compare to run them. ${left} left out (another category, or over 8).`,
            other: `Added # models of ${categoryName} to the comparison: open Compare to run them. ${left} left out (another category, or over 8).`,
          })
        : plural(added, {
            one: `Added # model of ${categoryName} to the comparison: open Compare to run them.`,
            other: `Added # models of ${categoryName} to the comparison: open Compare to run them.`,
          }),
    );
  };

  return (
    <div
      role="toolbar"
      aria-label={t`Selection`}
      className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm ring-1 ring-indigo-200 dark:bg-indigo-950/50 dark:ring-indigo-900"
    >
      <span className="font-medium tabular-nums" data-testid="selection-count" aria-live="polite">
        <Trans>{selectedCount} selected</Trans>
      </span>
      <Button size="sm" onClick={starSelected}>
        <Star className="size-4" aria-hidden="true" />
        <Trans>Star selected</Trans>
      </Button>
      {reviews && withOutput.length > 0 && <ReviewButtons current={reviewState} onChoose={reviewSelected} />}
      {searchStores && withOutput.length > 0 && <AddTag tags={searchStores.tags} outputKeys={withOutput} />}
      {selected.some((i) => !hiddenIds.has(i.entry.taskId)) && (
        <Button
          size="sm"
          onClick={hideSelected}
          title={t`Hide from this device's history (the service keeps them)`}
        >
          <EyeOff className="size-4" aria-hidden="true" />
          <Trans>Hide</Trans>
        </Button>
      )}
      {selected.some((i) => hiddenIds.has(i.entry.taskId)) && (
        <Button size="sm" onClick={showSelected}>
          <Eye className="size-4" aria-hidden="true" />
          <Trans>Show again</Trans>
        </Button>
      )}
      <Button size="sm" onClick={addToComparison}>
        <Columns3 className="size-4" aria-hidden="true" />
        <Trans>Add to comparison</Trans>
      </Button>
      <Button
        size="sm"
        disabled={!compareTarget}
        onClick={() => compareTarget && onCompare(compareTarget)}
        title={t`Two outputs, or one edit and its source`}
      >
        <Columns2 className="size-4" aria-hidden="true" />
        <Trans>Compare two</Trans>
      </Button>
      {extraActions?.(selected)}
      <Button size="sm" variant="ghost" className="ms-auto" onClick={onClear}>
        <Trans>Clear selection</Trans>
      </Button>
    </div>
  );
}
