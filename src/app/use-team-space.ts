import { useCallback } from 'react';
import type { Me } from '../../contract/me';
import type { TeamSpaceReason } from '../../contract/team-room';
import type { TeamSpaceConfig } from '../../contract/team-space-config';
import type { TeamAvailability } from '../features/team/team-space-settings';
import type { HistoryStore } from '../model/history/history-store';
import type { LocalJudgements } from '../model/team/team-judgements';
import type { LocalReviews } from '../model/team/team-reviews';
import type { LocalSearches } from '../model/team/team-searches';
import type { TeamSession } from '../model/team/team-session';
import type { TeamSettings } from '../model/team/team-settings';
import type { LocalTags } from '../model/team/team-tags';
import { useFreeSpace } from './use-free-space';
import { useTeamSession } from './use-team-session';
import { useTeamSettings } from './use-team-settings';

// The team space of one connection (docs/team-space.md): its settings on this device
// (use-team-settings.ts), and, while the member has it on, the session (document, connection, stores),
// loaded on demand (use-team-session.ts, team-space-code.ts): the studio's first load and the connected
// studio's chunk carry no Yjs. Who is there is read apart, by use-team-presence.ts.

export interface TeamSpaceState {
  availability: TeamAvailability;
  settings: TeamSettings;
  setOn: (on: boolean) => void;
  setName: (name: string) => void;
  /** While on and opened. */
  session: TeamSession | null;
  /** The studio stopped joining after a second refused change (the status line says so). */
  stopped: TeamSpaceReason | null;
  /** "Free space": whether its dialog is open. */
  freeSpaceOpen: boolean;
  setFreeSpaceOpen: (open: boolean) => void;
  /** This device's own tasks from before the team space was on, when the member has not answered yet. */
  earlierCount: number;
  answerEarlier: (share: boolean) => void;
}

export function useTeamSpace({
  me,
  connectionId,
  baseUrl,
  history,
  config,
  token,
  judgements,
  reviews,
  tags,
  searches,
}: {
  me: Me;
  connectionId: string;
  baseUrl: string;
  history: HistoryStore | null;
  config: TeamSpaceConfig | undefined;
  /** The API key, for the server's check against GET /me (kept by the connection, never stored). */
  token: () => string;
  /** This device's stars and ratings (Team picks), once the gallery's stores are open. */
  judgements: LocalJudgements | null;
  /** This device's reviews of outputs: this member's go to the team. */
  reviews?: LocalReviews | null;
  /** This device's tags of outputs and saved searches: this member's go to the team. */
  tags?: LocalTags | null;
  searches?: LocalSearches | null;
}): TeamSpaceState {
  const { settings, availability, update, setOn, setName } = useTeamSettings({
    connectionId,
    baseUrl,
    config,
    keyLabel: me.key.label,
  });
  const open =
    settings.on && availability.ok && history !== null && judgements !== null && config !== undefined;
  const { session, stopped, earlierCount } = useTeamSession({
    open,
    me,
    connectionId,
    config,
    token,
    settings,
    update,
    history,
    judgements,
    reviews,
    tags,
    searches,
  });
  const { freeSpaceOpen, setFreeSpaceOpen } = useFreeSpace(session);

  // Answered either way, the question is not asked again on this device.
  const answerEarlier = useCallback(
    (share: boolean) => {
      if (share) session?.shareEarlierTasks();
      update((s) => ({ ...s, earlierAnswered: true }));
    },
    [session, update],
  );

  return {
    availability,
    settings,
    setOn,
    setName,
    session,
    stopped,
    freeSpaceOpen,
    setFreeSpaceOpen,
    earlierCount: settings.earlierAnswered ? 0 : earlierCount,
    answerEarlier,
  };
}
