import { useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Me } from '../../contract/me';
import { memberIdOf, teamRoomOf } from '../../contract/team-room';
import type { TeamSpaceConfig } from '../../contract/team-space-config';
import type { HistoryStore } from '../model/history/history-store';
import type { TeamStatus } from '../model/team/team-connection';
import type { LocalJudgements } from '../model/team/team-judgements';
import type { LocalReviews } from '../model/team/team-reviews';
import type { LocalSearches } from '../model/team/team-searches';
import type { LocalTags } from '../model/team/team-tags';
import type { Member } from '../model/team/team-members';
import type { TeamSession } from '../model/team/team-session';
import type { ShareState } from '../model/team/team-share';
import {
  readTeamSettings,
  sameApi,
  withWithdrawn,
  writeTeamSettings,
  type TeamSettings,
} from '../model/team/team-settings';
import type { TeamSpaceReason } from '../../contract/team-room';
import type { TeamAvailability } from '../features/team/team-space-settings';
import { notifyChangeRefused, notifyShareNearlyFull } from '../features/team/team-notices';
import { NO_SUBSCRIBE } from '../lib/use-optional-store';

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
  /** The studio stopped joining after a second refused change (the status line says so). */
  stopped: TeamSpaceReason | null;
  /** "Free space": whether its dialog is open. */
  freeSpaceOpen: boolean;
  setFreeSpaceOpen: (open: boolean) => void;
  /** This device's own tasks from before the team space was on, when the member has not answered yet. */
  earlierCount: number;
  answerEarlier: (share: boolean) => void;
}

const NO_MEMBERS: readonly Member[] = [];

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
  const { t } = useLingui();
  const [settings, setSettings] = useState(() => readTeamSettings(connectionId));
  const [session, setSession] = useState<TeamSession | null>(null);
  const [stopped, setStopped] = useState<TeamSpaceReason | null>(null);
  const [freeSpaceOpen, setFreeSpaceOpen] = useState(false);
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
  // The name a session joins under: the member's latest, read when the session opens (a session opened
  // afresh after a refused change joins under the name chosen since the first one opened, not under the
  // key's label); a rename while one is open goes through it (below).
  const name = settings.name || me.key.label;
  const nameNow = useRef(name);
  useEffect(() => {
    nameNow.current = name;
  }, [name]);
  const maxDocumentBytes = config?.maxDocumentBytes ?? null;
  // The tasks taken out of the team (Free space) when the session opens; later ones go through it.
  const [withdrawn] = useState(() => settings.withdrawn);
  useEffect(() => {
    if (!open || !history || !path) return;
    let live = true;
    let opened: { close: () => Promise<void> } | null = null;
    void Promise.all([import('../model/team/team-session'), import('../model/team/team-live')]).then(
      async ([{ TeamSession }, { TeamLive }]) => {
        if (!live) return;
        const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
        // One session at a time: a change the server refuses drops this device's copy and joins afresh
        // (team-live.ts), with new stores; the member's own stores are untouched.
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
      },
    );
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

  // Past 80 % of this member's share of the room: said once per session, with "Free space".
  const share = useSyncExternalStore(
    session?.share.subscribe ?? NO_SUBSCRIBE,
    () => session?.share.snapshot() ?? null,
  );
  const nearlyFull = share !== null && share.level !== 'ok';
  useEffect(() => {
    if (nearlyFull) notifyShareNearlyFull(() => setFreeSpaceOpen(true));
  }, [nearlyFull, session]);

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
    stopped,
    freeSpaceOpen,
    setFreeSpaceOpen,
    earlierCount: settings.earlierAnswered ? 0 : earlierCount,
    answerEarlier,
  };
}

/** The session's connection status, members and this member's share, for the status line and "Members". */
/**
 * Loads the team space's code while its switch is in view and the page idle, so that turning it on
 * neither waits for the code nor evaluates it then (tens of milliseconds of one task, in the join).
 */
export function warmTeamSpace(): void {
  const load = () => {
    void Promise.all([import('../model/team/team-session'), import('../model/team/team-live')]).catch(
      () => undefined, // offline: turning it on loads it again, and says so if it cannot
    );
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}

export function useTeamPresence(session: TeamSession | null): {
  status: TeamStatus | null;
  members: readonly Member[];
  share: ShareState | null;
} {
  const share = useSyncExternalStore(
    session?.share.subscribe ?? NO_SUBSCRIBE,
    () => session?.share.snapshot() ?? null,
  );
  const status = useSyncExternalStore(
    session?.connection.subscribe ?? NO_SUBSCRIBE,
    () => session?.connection.snapshot() ?? null,
  );
  const members = useSyncExternalStore(session?.members.subscribe ?? NO_SUBSCRIBE, () =>
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
  return { status, members: shown, share };
}
