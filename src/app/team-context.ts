import { createContext, useContext } from 'react';
import type { TeamSession } from '../model/team/team-session';

// The open team session (or null: the team space is off, or still opening), for the app's compositions
// deep in the tree (the creator's tools, the views) that hand its stores to features as props.
export const TeamSessionContext = createContext<TeamSession | null>(null);

export const useTeamSession = (): TeamSession | null => useContext(TeamSessionContext);
