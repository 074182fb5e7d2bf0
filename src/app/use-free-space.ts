import { useEffect, useState, useSyncExternalStore } from 'react';
import { notifyShareNearlyFull } from '../features/team/team-notices';
import type { TeamSession } from '../model/team/team-session';
import { NO_SUBSCRIBE } from '../lib/use-optional-store';

// "Free space": whether its dialog is open, and the nudge towards it. Past 80 % of this member's share of
// the room, a notice says so once per session, with a button that opens the dialog.

export function useFreeSpace(session: TeamSession | null) {
  const [freeSpaceOpen, setFreeSpaceOpen] = useState(false);
  const share = useSyncExternalStore(
    session?.share.subscribe ?? NO_SUBSCRIBE,
    () => session?.share.snapshot() ?? null,
  );
  const nearlyFull = share !== null && share.level !== 'ok';
  useEffect(() => {
    if (nearlyFull) notifyShareNearlyFull(() => setFreeSpaceOpen(true));
  }, [nearlyFull, session]);
  return { freeSpaceOpen, setFreeSpaceOpen };
}
