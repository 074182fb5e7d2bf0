import { useEffect, useRef, useState } from 'react';
import type { Me } from '../../contract/me';
import { memberIdOf, teamRoomOf, type TeamSpaceReason } from '../../contract/team-room';
import type { TeamSpaceConfig } from '../../contract/team-space-config';
import { notifyChangeRefused } from '../features/team/team-notices';
import type { HistoryStore } from '../model/history/history-store';
import type { LocalJudgements } from '../model/team/team-judgements';
import type { LocalReviews } from '../model/team/team-reviews';
import type { LocalSearches } from '../model/team/team-searches';
import type { TeamSession } from '../model/team/team-session';
import { withWithdrawn, type TeamSettings } from '../model/team/team-settings';
import type { LocalTags } from '../model/team/team-tags';
import { loadTeamSpaceCode } from './team-space-code';

// Joining the room: while `open`, the team space's code is loaded and one live session kept (team-live.ts:
// a change the server refuses drops this device's copy and joins afresh, with new stores; the member's
// own stores are untouched). Closed when `open` turns false or anything the session was made from changes.

/** The socket of the team space, on the studio's own origin. */
const socketUrl = (path: string) =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;

export function useTeamSession({
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
}: {
  /** The member has it on and everything a session needs is here. */
  open: boolean;
  me: Me;
  connectionId: string;
  config: TeamSpaceConfig | undefined;
  token: () => string;
  settings: TeamSettings;
  /** Changes the settings on this device (stable: a new one would close and reopen the session). */
  update: (change: (s: TeamSettings) => TeamSettings) => void;
  history: HistoryStore | null;
  judgements: LocalJudgements | null;
  reviews?: LocalReviews | null;
  tags?: LocalTags | null;
  searches?: LocalSearches | null;
}): {
  session: TeamSession | null;
  stopped: TeamSpaceReason | null;
  /** This device's own tasks from before the team space was on, counted when the first session opened. */
  earlierCount: number;
} {
  const [session, setSession] = useState<TeamSession | null>(null);
  const [stopped, setStopped] = useState<TeamSpaceReason | null>(null);
  const [earlierCount, setEarlierCount] = useState(0);
  const room = teamRoomOf(me);
  const memberId = memberIdOf(me);
  const path = config?.path;
  const maxDocumentBytes = config?.maxDocumentBytes ?? null;
  const sharedSince = settings.sharedSince;
  // The name a session joins under: the member's latest, read when the session opens (a session opened
  // afresh after a refused change joins under the name chosen since the first one opened, not under the
  // key's label); a rename while one is open goes through it (below).
  const name = settings.name || me.key.label;
  const nameNow = useRef(name);
  useEffect(() => {
    nameNow.current = name;
  }, [name]);
  // The tasks taken out of the team (Free space) when the session opens; later ones go through it.
  const [withdrawn] = useState(() => settings.withdrawn);

  useEffect(() => {
    if (!open || !history || !path) return;
    let live = true;
    let opened: { close: () => Promise<void> } | null = null;
    void loadTeamSpaceCode().then(async ([{ TeamSession }, { TeamLive }]) => {
      if (!live) return;
      const url = socketUrl(path);
      // One session at a time: after a refused change, TeamLive makes the next one (afresh) with this.
      const team = new TeamLive({
        open: (afresh) =>
          new TeamSession({
            url,
            room,
            token,
            memberId,
            displayName: nameNow.current,
            history,
            connectionId,
            sharedSince: sharedSince ?? Date.now(),
            judgements,
            reviews,
            tags,
            searches,
            afresh,
            maxDocumentBytes,
            withdrawnTasks: withdrawn,
            onWithdrawn: (ids, out) => update((s) => withWithdrawn(s, ids, out)),
          }),
        onRefusal: notifyChangeRefused,
      });
      opened = team;
      team.subscribe(() => {
        const state = team.snapshot();
        setSession(state.session);
        setStopped(state.stopped);
      });
      await team.start();
      if (!live) return;
      const first = team.snapshot().session;
      if (first) setEarlierCount(first.earlierTasks().length);
    });
    return () => {
      live = false;
      setSession(null);
      setStopped(null);
      void opened?.close();
    };
  }, [
    open,
    history,
    judgements,
    reviews,
    tags,
    searches,
    path,
    connectionId,
    token,
    room,
    memberId,
    sharedSince,
    maxDocumentBytes,
    withdrawn,
    update,
  ]);

  useEffect(() => {
    if (session && settings.name) session.members.setName(settings.name);
  }, [session, settings.name]);

  return { session, stopped, earlierCount };
}
