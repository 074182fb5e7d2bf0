import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useCallback, useMemo, useRef, type RefObject } from 'react';
import type { Me } from '../../contract/me';
import type { ParamDef } from '../../contract/param';
import type { ParamValue } from '../../contract/task';
import { useApi } from '../api/api-context';
import { ReviewLinesContext } from '../components/history/review-control';
import { KeptCopyContext } from '../components/history/kept-copy-context';
import { Spinner } from '../components/spinner';
import type { BoardSource } from '../features/compare/board-source';
import { ParamInput } from '../features/forms/param-input';
import {
  GalleryDataContext,
  GalleryTeamContext,
  type GalleryData,
  type GalleryTeam,
} from '../features/gallery/gallery-context';
import type { ComparisonModel } from '../features/gallery/selection-toolbar';
import { PromptLibraryProvider } from '../features/prompts/prompt-library-provider';
import { preloadModule, useLoaded } from '../lib/use-loaded';
import type { ConnectionRuntime } from '../model/connection-runtime';
import { shareUrlFor } from './use-compare-route';
import type { useComparisonDraft } from './use-comparison-draft';
import { useGalleryFilter } from './use-gallery-route';
import type { GalleryStores } from './use-gallery-stores';
import { useHeldTasks } from './use-queue-share';
import type { useStudioNavigation } from './use-studio-navigation';
import type { StudioTeam } from './use-studio-team';
import { Workspace, type WorkspaceActions } from './workspace';

// The studio's place under its header: Usage, a compare board, or the form with the gallery over it.
// Everything after Connect is loaded on demand, so the first screen is only the connect form. Compare
// boards, Usage and the gallery are chunks of their own, loaded when first opened.
const CompareView = lazy(() =>
  import('../features/compare/compare-view').then((m) => ({ default: m.CompareView })),
);
const UsageView = lazy(() => import('../features/usage/usage-view').then((m) => ({ default: m.UsageView })));
// The gallery (product-notes §3 "Gallery and viewer"): a chunk of its own, with its viewer, compare-two and
// zoom library. Held as state (useLoaded), not React.lazy: a lazy view's reveal waits out React's 300 ms
// Suspense throttle.
const loadGallery = () => import('./gallery-screen');
// A reload or link into the gallery fetches its chunk now, beside the history read, not after it.
if (new URLSearchParams(window.location.search).get('view') === 'gallery') void preloadModule(loadGallery);

const loading = (label: string) => (
  <div className="flex flex-1 items-center justify-center p-8">
    <Spinner label={label} />
  </div>
);

export function StudioViews({
  nav,
  me,
  runner,
  galleryStores,
  team,
  comparison,
  openOutput,
  phone,
}: {
  nav: ReturnType<typeof useStudioNavigation>;
  me: Me;
  runner: ConnectionRuntime | null;
  galleryStores: GalleryStores | null;
  team: StudioTeam;
  comparison: ReturnType<typeof useComparisonDraft>;
  /** An output the gallery opens in its Viewer (a comment's notice). */
  openOutput: { key: string; nonce: number } | null;
  phone: boolean;
}) {
  const { t } = useLingui();
  const { baseUrl } = useApi();
  const { compare, views, galleryShown } = nav;
  const gallery = useGalleryFilter();
  // Remix and "Use as input" from the gallery act on the form, which stays mounted (hidden) meanwhile.
  const workspace: RefObject<WorkspaceActions | null> = useRef<WorkspaceActions>(null);
  // Read only while the gallery shows it: a queue change then renders nothing else here.
  const galleryHeld = useHeldTasks(galleryShown ? (runner?.queue ?? null) : null);
  const galleryModule = useLoaded(loadGallery, galleryShown);
  const addToComparison = comparison.add;
  const addModelsToComparison = useCallback(
    (models: ComparisonModel[]) => {
      for (const m of models) addToComparison(m.category, { modelId: m.modelId, versionId: m.versionId });
    },
    [addToComparison],
  );
  // The gallery's stores, provided once for the screen (features/gallery/gallery-context.ts): this
  // connection's, and the team's while the team space is on.
  const galleryData = useMemo<GalleryData | null>(
    () =>
      runner && galleryStores
        ? {
            history: runner.store,
            judgements: galleryStores.judgements,
            hidden: galleryStores.hidden,
            reviews: runner.reviews,
          }
        : null,
    [runner, galleryStores],
  );
  const session = team.space.session;
  const reviewTeam = team.views.reviewTeam;
  const galleryTeam = useMemo<GalleryTeam>(
    () => ({ picks: session?.judgements ?? null, earlier: session?.earlier ?? null, reviewTeam }),
    [session, reviewTeam],
  );
  const renderParam = useCallback(
    (def: ParamDef, value: ParamValue | undefined, onChange: (v: ParamValue | undefined) => void) => (
      <ParamInput def={def} value={value} onChange={onChange} baseUrl={baseUrl} />
    ),
    [baseUrl],
  );

  if (views.view === 'usage')
    return (
      <Suspense fallback={loading(t`Loading usage`)}>
        <UsageView
          me={me}
          store={runner?.store ?? null}
          memberName={team.space.session ? team.space.settings.name || me.key.label : undefined}
          teamMonths={team.months}
        />
      </Suspense>
    );
  if (compare.source)
    return (
      <Suspense fallback={loading(t`Loading compare boards`)}>
        <ReviewLinesContext value={team.views.reviewLinesOf}>
          <CompareView
            source={compare.source}
            runner={runner}
            me={me}
            renderParam={renderParam}
            onOpen={(source: BoardSource) => compare.go(source, { replace: source.kind === 'saved' })}
            shareUrl={shareUrlFor}
            team={team.views.compare}
            renderCellExtras={team.views.renderCellExtras}
          />
        </ReviewLinesContext>
      </Suspense>
    );
  return (
    <PromptLibraryProvider library={runner?.prompts ?? null} team={team.space.session?.library}>
      {/* The kept copies of starred outputs: the gallery's tiles, Viewer and Download selected show them, and
          the History column's detail view downloads one too. */}
      <KeptCopyContext value={galleryStores?.keepers ?? null}>
        {galleryShown && (
          <Suspense fallback={loading(t`Loading the gallery`)}>
            {galleryData && galleryModule ? (
              <GalleryDataContext value={galleryData}>
                <GalleryTeamContext value={galleryTeam}>
                  <galleryModule.GalleryScreen
                    held={galleryHeld}
                    filter={gallery.filter}
                    onFilter={gallery.setFilter}
                    onRemix={(entry) => {
                      views.go(null);
                      workspace.current?.onRemix(entry);
                    }}
                    onUseAsInput={(url, mediaType) => {
                      views.go(null);
                      workspace.current?.onUseAsInput(url, mediaType);
                    }}
                    onAddToComparison={addModelsToComparison}
                    renderOutputExtras={team.views.renderOutputExtras}
                    openOutput={openOutput}
                    runningFirst={phone}
                  />
                </GalleryTeamContext>
              </GalleryDataContext>
            ) : (
              loading(t`Loading the gallery`)
            )}
          </Suspense>
        )}
        <div hidden={galleryShown} className="contents">
          <Workspace
            me={me}
            runner={runner}
            galleryStores={galleryStores}
            actions={workspace}
            onAddToComparison={addToComparison}
            draftCount={comparison.draft?.columns.length ?? 0}
          />
        </div>
      </KeptCopyContext>
    </PromptLibraryProvider>
  );
}
