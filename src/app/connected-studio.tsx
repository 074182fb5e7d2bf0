// The zod settings before any of the API's schemas is built (see zod-config.ts).
import '../zod-config';
import { useLingui } from '@lingui/react/macro';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { useHeldTasks, useQueueShare } from './use-queue-share';
import type { Me } from '../../contract/me';
import type { ParamDef } from '../../contract/param';
import type { ParamValue } from '../../contract/task';
import { ApiProvider, useApi, type ApiConnection } from '../api/api-context';
import { keepCatalog } from '../api/queries/catalog-queries';
import { CatalogKeepStore } from '../model/catalog/catalog-keep';
import { NoticeArea } from '../components/notice-area';
import { ShortcutsDialog } from '../components/shortcuts-dialog';
import { Spinner } from '../components/spinner';
import type { BoardSource } from '../features/compare/board-source';
import { KeyWarnings } from '../features/connect/account-panel';
import { useMe } from '../features/connect/use-me';
import { ParamInput } from '../features/forms/param-input';
import type { ComparisonModel } from '../features/gallery/selection-toolbar';
import { KeptCopyContext } from '../components/history/kept-copy-context';
import { PromptLibraryProvider } from '../features/prompts/prompt-library-provider';
import { useTasks } from '../features/tasks/use-tasks';
import { Header } from './header';
import { NetworkStatus } from './network-status';
import { StudioNav } from './studio-nav';
import { useComparisonDraft } from './use-comparison-draft';
import { shareUrlFor, useCompareRoute } from './use-compare-route';
import { preloadModule, useLoaded } from '../lib/use-loaded';
import { useGalleryFilter } from './use-gallery-route';
import { useGalleryStores } from './use-gallery-stores';
import { useViewRoute } from './use-view-route';
import { useTeamPresence, useTeamSpace, warmTeamSpace } from './use-team-space';
import { TeamSessionContext } from './team-context';
import { SearchStoresContext } from '../components/search/search-stores';
import { useSearchStores } from './use-search-stores';
import { useTeamViews } from './team-views';
import { ReviewLinesContext } from '../components/history/review-control';
import { TeamCommentNotices } from '../features/comments/new-comment-notices';
import type { StudioConfig } from './config';
import { MembersButton } from '../features/team/members-dialog';
import { TeamSpaceSettings } from '../features/team/team-space-settings';
import { TeamStatusLine } from '../features/team/team-status-line';
import { FreeSpaceDialog } from '../features/team/free-space-dialog';
import { promptOf } from '../model/history/download-name';
import { Workspace, type WorkspaceActions } from './workspace';
import { PhoneNav, type Destination } from './phone-nav';
import { usePhone } from '../lib/use-media-query';

// Everything after Connect: loaded on demand, so the first screen is only the connect form. Compare
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
// A "Download selected" ZIP whose tab closed before removing it stays in the private file system:
// removed when the studio starts (a small chunk of its own, read after Connect).
void import('../features/takeaway/zip-sink').then((m) => m.removeLeftoverZips());
const loading = (label: string) => (
  <div className="flex flex-1 items-center justify-center p-8">
    <Spinner label={label} />
  </div>
);

// The API client applies the API's retry policy itself, so React Query never retries on top of it.
// The catalog's answers are also kept on the device, so it opens again offline (docs/offline.md).
const newQueryClient = (connectionId: string) => {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  keepCatalog(client, new CatalogKeepStore(connectionId));
  return client;
};

interface ConnectedStudioProps {
  /** The connection's API client and the id that keys its caches and its history. */
  connection: ApiConnection;
  initialMe: Me;
  onDisconnect: () => void;
  /** /config.json: the team-space server beside this studio, when there is one. */
  config: StudioConfig | null;
}

/**
 * The API's client and React Query live here, not around the whole app: the connect screen needs
 * neither, so they stay out of the first load. One cache per connection (this component is keyed by it):
 * a key never sees another key's cached answers.
 */
export default function ConnectedStudio({ connection, ...props }: ConnectedStudioProps) {
  const [queryClient] = useState(() => newQueryClient(connection.connectionId));
  return (
    <ApiProvider value={connection}>
      <QueryClientProvider client={queryClient}>
        <StudioForConnection {...props} />
      </QueryClientProvider>
    </ApiProvider>
  );
}

function StudioForConnection({ initialMe, onDisconnect, config }: Omit<ConnectedStudioProps, 'connection'>) {
  const { t } = useLingui();
  const me = useMe(initialMe);
  const { baseUrl, client, connectionId } = useApi();
  // The tasks' lifecycle (submit, re-send, poll, notices), followed whichever view is open.
  const runner = useTasks(me);

  const compare = useCompareRoute();
  // ?view=gallery or ?view=usage: a view in the place of the studio (and of a board) until closed.
  const views = useViewRoute();
  const gallery = useGalleryFilter();
  const galleryStores = useGalleryStores(runner);
  // The team space: off until the member turns it on; its code loads then.
  const team = useTeamSpace({
    me,
    connectionId,
    baseUrl,
    history: runner?.store ?? null,
    judgements: galleryStores?.judgements ?? null,
    reviews: runner?.reviews ?? null,
    tags: runner?.tags ?? null,
    searches: runner?.searches ?? null,
    config: config?.teamSpace,
    // The team-space server checks the key itself against GET /me: the provider reads it when it connects.
    token: client.teamSpaceToken,
  });
  const presence = useTeamPresence(team.session);
  useQueueShare(team.session, runner);
  const teamViews = useTeamViews(
    team.session,
    presence.members,
    runner?.store ?? null,
    runner?.reviews ?? null,
  );
  const searchStores = useSearchStores(
    runner?.store ?? null,
    runner?.tags ?? null,
    runner?.searches ?? null,
    galleryStores?.judgements ?? null,
    team.session,
    teamViews.memberName,
  );
  // Usage's team by month: the server's sums and the room's own tasks (one source per session).
  const teamMonthsSource = useMemo(() => {
    const session = team.session;
    return session
      ? { months: () => session.earlier.months(), live: () => session.tasks.snapshot().values() }
      : null;
  }, [team.session]);
  const [openOutput, setOpenOutput] = useState<{ key: string; nonce: number } | null>(null);
  const comparison = useComparisonDraft();
  // Remix and "Use as input" from the gallery act on the form, which stays mounted (hidden) meanwhile.
  const workspace = useRef<WorkspaceActions>(null);
  const galleryShown = views.view === 'gallery' && !compare.source;
  // Read only while the gallery shows it: a queue change then renders nothing else here.
  const galleryHeld = useHeldTasks(galleryShown ? (runner?.queue ?? null) : null);
  const galleryModule = useLoaded(loadGallery, galleryShown);
  const phone = usePhone();
  const addToComparison = comparison.add;
  const addModelsToComparison = useCallback(
    (models: ComparisonModel[]) => {
      for (const m of models) addToComparison(m.category, { modelId: m.modelId, versionId: m.versionId });
    },
    [addToComparison],
  );
  const renderParam = useCallback(
    (def: ParamDef, value: ParamValue | undefined, onChange: (v: ParamValue | undefined) => void) => (
      <ParamInput def={def} value={value} onChange={onChange} baseUrl={baseUrl} />
    ),
    [baseUrl],
  );
  const onGallery = () => {
    if (galleryShown) return views.go(null);
    if (compare.source) compare.go(null, { replace: true });
    views.go('gallery');
  };
  const compareShown = compare.source !== null && !views.view;
  const onCompare = () => {
    if (views.view) views.go(null, { replace: true });
    if (compare.source && !views.view) return compare.go(null);
    const draft = comparison.take();
    compare.go(draft ? { kind: 'new', ...draft } : { kind: 'new' });
  };
  // The phone's bar: a destination already shown stays (a tap never toggles it away, as the header's do).
  const destination: Destination | null = galleryShown
    ? 'results'
    : compareShown
      ? 'compare'
      : views.view
        ? null
        : 'create';
  const onDestination = (next: Destination) => {
    if (next === destination) return;
    if (next === 'results') return onGallery();
    if (next === 'compare') return onCompare();
    if (compare.source) compare.go(null, { replace: views.view !== null });
    if (views.view) views.go(null);
  };
  return (
    <TeamSessionContext.Provider value={team.session}>
      <SearchStoresContext value={searchStores}>
        <Header>
          <StudioNav
            me={me}
            galleryShown={galleryShown}
            compareShown={compareShown}
            usageShown={views.view === 'usage'}
            draftCount={comparison.draft && !compare.source ? comparison.draft.columns.length : null}
            onGallery={onGallery}
            onCompare={onCompare}
            onUsage={() => {
              if (views.view === 'usage') return views.go(null);
              if (compare.source) compare.go(null, { replace: true });
              views.go('usage');
            }}
            onDisconnect={onDisconnect}
            teamButton={
              // A refused key is in no team space: no members to show (the status line says why).
              team.session && presence.status?.link !== 'refused' ? (
                <MembersButton members={presence.members} />
              ) : null
            }
            teamSettings={
              <TeamSpaceSettings
                availability={team.availability}
                on={team.settings.on}
                onToggle={team.setOn}
                name={team.settings.name || me.key.label}
                onName={team.setName}
                earlier={team.session ? { count: team.earlierCount, onAnswer: team.answerEarlier } : null}
                onOffered={warmTeamSpace}
              />
            }
          />
        </Header>
        <div className="space-y-2 px-4 pt-3 empty:hidden">
          <KeyWarnings me={me} />
        </div>
        {team.session && presence.status && (
          <TeamStatusLine
            status={presence.status}
            members={presence.members}
            share={presence.share}
            stopped={team.stopped}
            onFreeSpace={() => team.setFreeSpaceOpen(true)}
          />
        )}
        {team.session && presence.share && (
          <FreeSpaceDialog
            open={team.freeSpaceOpen}
            onOpenChange={team.setFreeSpaceOpen}
            share={presence.share}
            items={team.session.share.ownItems.bind(team.session.share)}
            onDelete={team.session.freeSpace.bind(team.session)}
            detailOf={(item) => {
              const entry = item.root === 'tasks' ? runner?.store.get(item.key) : undefined;
              return entry && (promptOf(entry) || undefined);
            }}
          />
        )}
        {team.session && (
          <div className="px-4 pt-2 empty:hidden">
            <TeamCommentNotices
              comments={team.session.comments}
              memberId={team.session.memberId}
              isMine={teamViews.isMine}
              memberName={(id) => presence.members.find((m) => m.id === id)?.name ?? ''}
              onOpen={(key) => {
                if (compare.source) compare.go(null, { replace: true });
                if (views.view !== 'gallery') views.go('gallery');
                setOpenOutput({ key, nonce: Date.now() });
              }}
            />
          </div>
        )}

        <NetworkStatus health={client.health} />
        <NoticeArea />
        <ShortcutsDialog
          screen={
            views.view === 'usage'
              ? 'usage'
              : compare.source
                ? 'compare'
                : galleryShown
                  ? 'gallery'
                  : 'studio'
          }
        />
        {views.view === 'usage' ? (
          <Suspense fallback={loading(t`Loading usage`)}>
            <UsageView
              me={me}
              store={runner?.store ?? null}
              memberName={team.session ? team.settings.name || me.key.label : undefined}
              teamMonths={teamMonthsSource}
            />
          </Suspense>
        ) : compare.source ? (
          <Suspense fallback={loading(t`Loading compare boards`)}>
            <ReviewLinesContext value={teamViews.reviewLinesOf}>
              <CompareView
                source={compare.source}
                runner={runner}
                me={me}
                renderParam={renderParam}
                onOpen={(source: BoardSource) => compare.go(source, { replace: source.kind === 'saved' })}
                shareUrl={shareUrlFor}
                team={teamViews.compare}
                renderCellExtras={teamViews.renderCellExtras}
              />
            </ReviewLinesContext>
          </Suspense>
        ) : (
          <PromptLibraryProvider library={runner?.prompts ?? null} team={team.session?.library}>
            <>
              {galleryShown && (
                <Suspense fallback={loading(t`Loading the gallery`)}>
                  {runner && galleryStores && galleryModule ? (
                    <galleryModule.GalleryScreen
                      history={runner.store}
                      held={galleryHeld}
                      judgements={galleryStores.judgements}
                      reviews={runner.reviews}
                      reviewTeam={teamViews.reviewTeam}
                      hidden={galleryStores.hidden}
                      keepers={galleryStores.keepers}
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
                      teamPicks={teamViews.teamPicks}
                      earlier={team.session?.earlier}
                      renderOutputExtras={teamViews.renderOutputExtras}
                      openOutput={openOutput}
                      runningFirst={phone}
                    />
                  ) : (
                    loading(t`Loading the gallery`)
                  )}
                </Suspense>
              )}
              <div hidden={galleryShown} className="contents">
                {/* The History column's detail view downloads a starred output's kept copy too. */}
                <KeptCopyContext.Provider value={galleryStores?.keepers ?? null}>
                  <Workspace
                    me={me}
                    runner={runner}
                    galleryStores={galleryStores}
                    actions={workspace}
                    onAddToComparison={addToComparison}
                    draftCount={comparison.draft?.columns.length ?? 0}
                  />
                </KeptCopyContext.Provider>
              </div>
            </>
          </PromptLibraryProvider>
        )}
        {phone && (
          <>
            {/* Room for the bar, so the end of every screen can be scrolled above it. */}
            <div aria-hidden="true" className="h-[calc(4rem+env(safe-area-inset-bottom))] shrink-0" />
            <PhoneNav
              current={destination}
              onGo={onDestination}
              draftCount={comparison.draft && !compare.source ? comparison.draft.columns.length : null}
            />
          </>
        )}
      </SearchStoresContext>
    </TeamSessionContext.Provider>
  );
}
