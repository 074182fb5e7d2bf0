import { useMemo } from 'react';
import type { Me } from '../../contract/me';
import type { ApiConnection } from '../api/api-context';
import type { GalleryStores } from './use-gallery-stores';
import type { ConnectionRuntime } from '../model/connection-runtime';
import type { StudioConfig } from './config';
import { useTeamViews } from './team-views';
import { useQueueShare } from './use-queue-share';
import { useSearchStores } from './use-search-stores';
import { useTeamPresence } from './use-team-presence';
import { useTeamSpace } from './use-team-space';

// The team space composed with this connection's stores: the session (off until the member turns it on;
// its code loads then), who is there, the queue shared with them, what the views show of the team, the
// search's stores (tags and saved searches, the team's merged in) and Usage's team months.

export function useStudioTeam({
  me,
  connection: { baseUrl, client, connectionId },
  runner,
  galleryStores,
  config,
}: {
  me: Me;
  connection: ApiConnection;
  runner: ConnectionRuntime | null;
  galleryStores: GalleryStores | null;
  config: StudioConfig | null;
}) {
  const space = useTeamSpace({
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
  const presence = useTeamPresence(space.session);
  useQueueShare(space.session, runner);
  const views = useTeamViews(space.session, presence.members, runner?.store ?? null, runner?.reviews ?? null);
  const searchStores = useSearchStores(
    runner?.store ?? null,
    runner?.tags ?? null,
    runner?.searches ?? null,
    galleryStores?.judgements ?? null,
    space.session,
    views.memberName,
  );
  // Usage's team by month: the server's sums and the room's own tasks (one source per session).
  const months = useMemo(() => {
    const session = space.session;
    return session
      ? { months: () => session.earlier.months(), live: () => session.tasks.snapshot().values() }
      : null;
  }, [space.session]);
  return { space, presence, views, searchStores, months };
}

export type StudioTeam = ReturnType<typeof useStudioTeam>;
