// The zod settings before any of the API's schemas is built (see zod-config.ts).
import '../zod-config';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import type { Me } from '../../contract/me';
import { ApiProvider, useApi, type ApiConnection } from '../api/api-context';
import { keepCatalog } from '../api/queries/catalog-queries';
import { NoticeArea } from '../components/notice-area';
import { SearchStoresContext } from '../components/search/search-stores';
import { ShortcutsDialog } from '../components/shortcuts-dialog';
import { KeyWarnings } from '../features/connect/account-panel';
import { useMe } from '../features/connect/use-me';
import { useTasks } from '../features/tasks/use-tasks';
import { MembersButton } from '../features/team/members-dialog';
import { TeamSpaceSettings } from '../features/team/team-space-settings';
import { usePhone } from '../lib/use-media-query';
import { CatalogKeepStore } from '../model/catalog/catalog-keep';
import type { StudioConfig } from './config';
import { Header } from './header';
import { NetworkStatus } from './network-status';
import { PhoneNav } from './phone-nav';
import { StudioNav } from './studio-nav';
import { StudioViews } from './studio-views';
import { TeamBar } from './team-bar';
import { TeamSessionContext } from './team-context';
import { useComparisonDraft } from './use-comparison-draft';
import { useGalleryStores } from './use-gallery-stores';
import { useStudioNavigation } from './use-studio-navigation';
import { useStudioTeam } from './use-studio-team';
import { warmTeamSpace } from './team-space-code';

// The connected studio, composed: the connection's client and cache, its tasks' runner and stores, the
// team space, and the header, the team's bar and the views under them (studio-views.tsx).

// A "Download selected" ZIP whose tab closed before removing it stays in the private file system:
// removed when the studio starts (a small chunk of its own, read after Connect).
void import('../features/takeaway/zip-sink').then((m) => m.removeLeftoverZips());

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
  const me = useMe(initialMe);
  const connection = useApi();
  // The tasks' lifecycle (submit, re-send, poll, notices), followed whichever view is open.
  const runner = useTasks(me);
  const galleryStores = useGalleryStores(runner);
  const team = useStudioTeam({ me, connection, runner, galleryStores, config });
  const comparison = useComparisonDraft();
  const nav = useStudioNavigation(comparison.take);
  const [openOutput, setOpenOutput] = useState<{ key: string; nonce: number } | null>(null);
  const phone = usePhone();
  const draftCount = comparison.draft && !nav.compare.source ? comparison.draft.columns.length : null;
  const { session } = team.space;
  return (
    <TeamSessionContext.Provider value={session}>
      <SearchStoresContext value={team.searchStores}>
        <Header>
          <StudioNav
            me={me}
            galleryShown={nav.galleryShown}
            compareShown={nav.compareShown}
            usageShown={nav.usageShown}
            draftCount={draftCount}
            onGallery={nav.toggleGallery}
            onCompare={nav.toggleCompare}
            onUsage={nav.toggleUsage}
            onDisconnect={onDisconnect}
            teamButton={
              // A refused key is in no team space: no members to show (the status line says why).
              session && team.presence.status?.link !== 'refused' ? (
                <MembersButton members={team.presence.members} />
              ) : null
            }
            teamSettings={
              <TeamSpaceSettings
                availability={team.space.availability}
                on={team.space.settings.on}
                onToggle={team.space.setOn}
                name={team.space.settings.name || me.key.label}
                onName={team.space.setName}
                earlier={
                  session ? { count: team.space.earlierCount, onAnswer: team.space.answerEarlier } : null
                }
                onOffered={warmTeamSpace}
              />
            }
          />
        </Header>
        <div className="space-y-2 px-4 pt-3 empty:hidden">
          <KeyWarnings me={me} />
        </div>
        <TeamBar
          team={team}
          history={runner?.store ?? null}
          onOpenOutput={(key) => {
            nav.showGallery();
            setOpenOutput({ key, nonce: Date.now() });
          }}
        />
        <NetworkStatus health={connection.client.health} />
        <NoticeArea />
        <ShortcutsDialog screen={nav.screen} />
        <StudioViews
          nav={nav}
          me={me}
          runner={runner}
          galleryStores={galleryStores}
          team={team}
          comparison={comparison}
          openOutput={openOutput}
          phone={phone}
        />
        {phone && (
          <>
            {/* Room for the bar, so the end of every screen can be scrolled above it. */}
            <div aria-hidden="true" className="h-[calc(4rem+env(safe-area-inset-bottom))] shrink-0" />
            <PhoneNav current={nav.destination} onGo={nav.goTo} draftCount={draftCount} />
          </>
        )}
      </SearchStoresContext>
    </TeamSessionContext.Provider>
  );
}
