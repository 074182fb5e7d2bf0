import { Trans, useLingui } from '@lingui/react/macro';
import { Columns2 } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { Button } from '../../components/button';
import {
  OutputActions,
  ParamList,
  TaskEndNotice,
  TaskFacts,
  Timings,
} from '../../components/history/task-detail';
import { OutputTagList } from '../../components/search/tag-control';
import {
  ReviewControl,
  type LocalReviewStore,
  type ReviewTeam,
} from '../../components/history/review-control';
import { displayText } from '../../lib/untrusted-text';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { promptOf, type MediaType } from '../../model/search/history-filter';
import type { HistoryEntry } from '../../model/history/history-types';
import type { Lineage } from '../../model/gallery/lineage';
import type { Judgement } from '../../model/history/judgements';
import { Judging } from './judging';
import { LineageLinks } from './lineage-links';
import { OtherOutputs } from './other-outputs';

export interface ViewerDetailsProps {
  current: GalleryItem;
  /** The output's URL, when it is safe to show. */
  url: string | undefined;
  judgement: Judgement | undefined;
  /** The team's stars and ratings of the output, as words ('' without the team space). */
  teamText: string;
  /** The source an edit was made from (Compare with source), if any. */
  source: string | null;
  onToggleStar: (item: GalleryItem) => void;
  onRate: (item: GalleryItem, rating: number | null) => void;
  onClose: (item: GalleryItem) => void;
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: MediaType) => void;
  onCompareSource: (item: GalleryItem) => void;
  onShow: (item: GalleryItem) => void;
  renderOutputExtras?: (outputKey: string) => ReactNode;
  /** "Made from" and "Used in" of the output shown. */
  lineage?: Lineage;
  /** This member's reviews, and the team's: the output's Review (none without `reviews`). */
  reviews: LocalReviewStore | null;
  reviewTeam: ReviewTeam | null;
}

/**
 * The Viewer's side panel: the task's title, facts and prompt, Star and rating, the team's picks, Review,
 * the detail view's actions, the task's other outputs, the app's extras (comments), timings and every param.
 */
export function ViewerDetails({
  current,
  url,
  judgement,
  teamText,
  source,
  onToggleStar,
  onRate,
  onClose,
  onRemix,
  onUseAsInput,
  onCompareSource,
  onShow,
  renderOutputExtras,
  lineage,
  reviews,
  reviewTeam,
}: ViewerDetailsProps) {
  const { t } = useLingui();
  const { entry, output } = current;
  return (
    <aside
      aria-label={t`Details`}
      className="flex w-full shrink-0 flex-col gap-4 p-4 lg:w-96 lg:overflow-y-auto"
    >
      <div>
        <h2 dir="auto" translate="no" className="text-base font-semibold">
          {displayText(entry.meta.title)}
        </h2>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <TaskFacts entry={entry} />
        </div>
        <Prompt entry={entry} />
      </div>
      {output && (
        <Judging
          starred={judgement?.starred === true}
          rating={judgement?.rating ?? null}
          onStar={() => onToggleStar(current)}
          onRate={(r) => onRate(current, r)}
        />
      )}
      {teamText && (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="viewer-team-pick">
          {t`Team: ${teamText}`}
        </p>
      )}
      {/* Keyed by output: a note being typed does not follow the viewer to the next output. */}
      {output && reviews && (
        <ReviewControl key={current.key} outputKey={current.key} reviews={reviews} team={reviewTeam} />
      )}
      {output && <OutputTagList key={`tags-${current.key}`} outputKey={current.key} />}
      <TaskEndNotice entry={entry} />
      <OutputActions
        entry={entry}
        url={url}
        keptKey={output ? current.key : undefined}
        onRemix={onRemix}
        onUseAsInput={onUseAsInput}
        onDone={() => onClose(current)}
      >
        {source && url && (
          <Button onClick={() => onCompareSource(current)} title={t`Compare with the source (C)`}>
            <Columns2 className="size-4" aria-hidden="true" />
            <Trans>Compare with source</Trans>
          </Button>
        )}
      </OutputActions>
      {entry.outputs.length > 1 && <OtherOutputs current={current} onShow={onShow} />}
      {lineage && <LineageLinks lineage={lineage} shownKey={current.key} onShow={onShow} />}
      {/* Keyed by output: a draft comment on one output does not follow the viewer to the next. */}
      {output && renderOutputExtras && (
        <Fragment key={current.key}>{renderOutputExtras(current.key)}</Fragment>
      )}
      <section>
        <h3 className="mb-2 text-sm font-semibold">
          <Trans>Timing</Trans>
        </h3>
        <Timings entry={entry} />
      </section>
      <section>
        <h3 className="mb-2 text-sm font-semibold">
          <Trans>Params</Trans>
        </h3>
        <ParamList entry={entry} />
      </section>
    </aside>
  );
}

function Prompt({ entry }: { entry: HistoryEntry }) {
  const prompt = promptOf(entry.request.params);
  if (!prompt) return null;
  return (
    <p
      dir="auto"
      translate="no"
      className="mt-3 text-sm whitespace-pre-wrap wrap-anywhere text-slate-700 dark:text-slate-300"
    >
      {displayText(prompt)}
    </p>
  );
}
