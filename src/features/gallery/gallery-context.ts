import { createContext, useContext } from 'react';
import type { ReviewTeam } from '../../components/history/review-control';
import type { EarlierSource } from '../../components/history/earlier-team-tasks';
import type { ReadableStore } from '../../lib/use-optional-store';
import type { HiddenTasks } from '../../model/history/hidden-tasks';
import type { HistoryStore } from '../../model/history/history-store';
import type { JudgementStore } from '../../model/history/judgements';
import type { ReviewStore } from '../../model/history/reviews';
import type { TeamPicks } from '../../model/team/team-judgements';

// The stores the Gallery reads, as the app provides them once (instead of a prop each through the screen):
// two contexts, one per lifetime. This connection's stores open and close with the key; the team's come and
// go with the team space. Kept copies and the search stores (tags, saved searches, the index) are the
// shared contexts of components/ (KeptCopyContext, SearchStoresContext), which other views read too. Types
// only, no components: the app shell provides these without loading the gallery's chunk.

/** This connection's stores that the Gallery shows and acts on. */
export interface GalleryData {
  history: HistoryStore;
  /** Stars and ratings of outputs. */
  judgements: JudgementStore;
  /** Tasks hidden on this device. */
  hidden: HiddenTasks;
  /**
   * This member's reviews of outputs (Approve, Needs changes, Reject): in the Viewer, on the selection
   * toolbar, as a badge on each reviewed tile and the "Review" filter. Without it none of these shows.
   */
  reviews: ReviewStore | null;
}

export const GalleryDataContext = createContext<GalleryData | null>(null);

/** The connection's stores; the Gallery is only shown once they are open. */
export function useGalleryData(): GalleryData {
  const data = useContext(GalleryDataContext);
  if (!data) throw new Error('The Gallery needs its stores: render it inside a GalleryDataContext.');
  return data;
}

/** The team's stores the Gallery reads while the team space is on. */
export interface GalleryTeam {
  /**
   * The team's stars and ratings: a "Team picks" filter, and on each tile how many members starred it and
   * their average rating. Without it the gallery is this device's alone.
   */
  picks: ReadableStore<TeamPicks> | null;
  /** The team's earlier tasks, read from the server at the grid's end and by search. */
  earlier: EarlierSource | null;
  /** The team's reviews and members' names (everyone's reviews show). */
  reviewTeam: ReviewTeam | null;
}

const NO_TEAM: GalleryTeam = { picks: null, earlier: null, reviewTeam: null };

/** Without a provider, or with the team space off: none of the team's parts show. */
export const GalleryTeamContext = createContext<GalleryTeam>(NO_TEAM);

export const useGalleryTeam = (): GalleryTeam => useContext(GalleryTeamContext);
