import { useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Me } from '../../contract/me';
import { memberIdOf, teamRoomOf } from '../../contract/team-room';
import type { TeamSpaceConfig } from '../../contract/team-space-config';
import type { HistoryStore } from '../model/history/history-store';
import type { TeamStatus } from '../model/team/team-connection';
import type { LocalJudgements } from '../model/team/team-judgements';
import type { Member } from '../model/team/team-members';
import type { TeamSession } from '../model/team/team-session';
import { readTeamSettings, sameApi, writeTeamSettings, type TeamSettings } from '../model/team/team-settings';
import type { TeamAvailability } from '../features/team/team-space-settings';

// The team space of one connection (docs/team-space.md): its settings on this device, and, while the
// member has it on, the session (document, connection, stores), loaded on demand: the studio's first load
// and the connected studio's chunk carry no Yjs.

export interface TeamSpaceState {
  availability: TeamAvailability;
  settings: TeamSettings;
  setOn: (on: boolean) => void;
  setName: (name: string) => void;
  /** While on and opened. */
  session: TeamSession | null;
  /** This device's own tasks from before the team space was on, when the member has not answered yet. */
  earlierCount: number;
  answerEarlier: (share: boolean) => void;
}

const NO_MEMBERS: readonly Member[] = [];
const noop = () => () => undefined;

export function useTeamSpace({
  me,
  connectionId,
  baseUrl,
  history,
  config,
  token,
  judgements,
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
}): TeamSpaceState {
  const { t } = useLingui();
  const [settings, setSettings] = useState(() => readTeamSettings(connectionId));
  const [session, setSession] = useState<TeamSession | null>(null);
  const [earlierCount, setEarlierCount] = useState(0);
  const teamApi = config?.apiBaseUrl ?? '';
  const availability: TeamAvailability = !config
    ? { ok: false, why: t`No team space runs beside this studio.` }
    : !sameApi(baseUrl, config.apiBaseUrl)
      ? {
          ok: false,
          why: t`The team space beside this studio admits keys of ${teamApi}; this key is for ${baseUrl}.`,
        }
      : { ok: true };

  const update = useCallback(
    (change: (s: TeamSettings) => TeamSettings) =>
      setSettings((s) => {
        const next = change(s);
        writeTeamSettings(connectionId, next);
        return next;
      }),
    [connectionId],
  );
  const setOn = useCallback(
    (on: boolean) =>
      update((s) => ({
        ...s,
        on,
        name: s.name || me.key.label,
        sharedSince: s.sharedSince ?? Date.now(),
      })),
    [update, me.key.label],
  );
  const setName = useCallback((name: string) => update((s) => ({ ...s, name })), [update]);

  const open =
    settings.on && availability.ok && history !== null && judgements !== null && config !== undefined;
  const room = teamRoomOf(me);
  const memberId = memberIdOf(me);
  const path = config?.path;
  const sharedSince = settings.sharedSince;
  // The name at the time of opening: a rename later goes through the open session (below).
  const [openingName] = useState(() => settings.name || me.key.label);
  useEffect(() => {
    if (!open || !history || !path) return;
    let live = true;
    let opened: TeamSession | null = null;
    void import('../model/team/team-session').then(async ({ TeamSession }) => {
      if (!live) return;
      const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
      opened = new TeamSession({
        url,
        room,
        token,
        memberId,
        displayName: openingName,
        history,
        connectionId,
        sharedSince: sharedSince ?? Date.now(),
        judgements,
      });
      await opened.start();
      if (!live) return;
      setSession(opened);
      setEarlierCount(opened.earlierTasks().length);
    });
    return () => {
      live = false;
      setSession(null);
      void opened?.close();
    };
  }, [open, history, judgements, path, connectionId, token, room, memberId, sharedSince, openingName]);

  useEffect(() => {
    if (session && settings.name) session.members.setName(settings.name);
  }, [session, settings.name]);

  const answerEarlier = useCallback(
    (share: boolean) => {
      if (share) session?.shareEarlierTasks();
      setEarlierCount(0);
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
    earlierCount: settings.earlierAnswered ? 0 : earlierCount,
    answerEarlier,
  };
}

/** The session's connection status and members, for the status line and "Members". */
export function useTeamPresence(session: TeamSession | null): {
  status: TeamStatus | null;
  members: readonly Member[];
} {
  const status = useSyncExternalStore(
    session?.connection.subscribe ?? noop,
    () => session?.connection.snapshot() ?? null,
  );
  const members = useSyncExternalStore(session?.members.subscribe ?? noop, () =>
    session ? session.members.snapshot() : NO_MEMBERS,
  );
  // Offline (or refused), who else is online is not known: the last presence heard may be stale (the
  // browser said offline before the socket closed), so only this member counts as online.
  const link = status?.link;
  const shown = useMemo(
    () =>
      link === 'online' || link === undefined
        ? members
        : members.map((m) => (m.online && !m.you ? { ...m, online: false } : m)),
    [link, members],
  );
  return { status, members: shown };
}
