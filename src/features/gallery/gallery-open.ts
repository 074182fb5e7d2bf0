import { createContext, useContext } from 'react';
import type { LocalReviewStore, ReviewTeam } from '../../components/history/review-control';
import type { CompareMode, CompareSide } from '../../model/gallery/compare-pair';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import type { Judgements } from '../../model/history/judgements';
import type { Lineage } from '../../model/gallery/lineage';
import type { TeamPick } from '../../model/team/team-judgements';

// What the Gallery has open over its grid: an output in the Viewer, or a pair in Compare two. Both are
// features of their own, which the app puts among the Gallery's children; each reads here what it is to
// show, and shows nothing while it is closed.

/** What the Gallery gives the Viewer it opens: the shown set, the output, and what to do on each action. */
export interface OpenViewer {
  items: GalleryItem[];
  /** The output's place in `items`; -1 when the filters leave it out. */
  index: number;
  current: GalleryItem;
  onIndex: (index: number) => void;
  onShow: (item: GalleryItem) => void;
  judgements: Judgements;
  teamPick: TeamPick | undefined;
  onToggleStar: (item: GalleryItem) => void;
  onRate: (item: GalleryItem, rating: number | null) => void;
  onClose: (item: GalleryItem) => void;
  onCompareSource: (item: GalleryItem) => void;
  /** "Made from" and "Used in" of the output shown. */
  lineage: Lineage;
  /** Review of the output shown: this member's reviews, and the team's while it is on. */
  reviews: LocalReviewStore | null;
  reviewTeam: ReviewTeam | null;
}

/** What the Gallery gives Compare two: the pair, the layout it opens in, and its close. */
export interface OpenCompareTwo {
  before: CompareSide;
  after: CompareSide;
  initialMode: CompareMode;
  onClose: () => void;
}

interface GalleryOpen {
  viewer: OpenViewer | null;
  compareTwo: OpenCompareTwo | null;
}

export const GalleryOpenContext = createContext<GalleryOpen>({ viewer: null, compareTwo: null });

/** The output the Viewer is to show, or null while it is closed. */
export const useOpenViewer = (): OpenViewer | null => useContext(GalleryOpenContext).viewer;

/** The pair Compare two is to show, or null while it is closed. */
export const useOpenCompareTwo = (): OpenCompareTwo | null => useContext(GalleryOpenContext).compareTwo;
