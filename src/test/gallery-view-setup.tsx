import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { db } from '../model/db';
import { NO_GALLERY_FILTER } from '../model/gallery/gallery-filter';
import { GalleryScreen, type GalleryScreenProps } from '../app/gallery-screen';
import type { EarlierSource } from '../components/history/earlier-team-tasks';
import { KeptCopyContext } from '../components/history/kept-copy-context';
import type { ReviewTeam } from '../components/history/review-control';
import {
  GalleryDataContext,
  GalleryTeamContext,
  type GalleryData,
} from '../features/gallery/gallery-context';
import { NO_SUBSCRIBE } from '../lib/use-optional-store';
import type { KeepersStore } from '../model/history/keepers';
import type { TeamPicks } from '../model/team/team-judgements';
import { HiddenTasks } from '../model/history/hidden-tasks';
import type { HistoryEntry } from '../model/history/history-types';
import { JudgementStore } from '../model/history/judgements';
import { CONNECTION, freshDatabase, stubLayout, storeWith } from './gallery-test-utils';

// The Gallery as its component tests render it (the screen the app shows: with its Viewer, Compare two and
// take-away, inside the contexts the app provides): a fresh database before each test, a laid-out viewport
// (happy-dom lays nothing out), and the view over real stores for the entries given.

/** The grid's own width decides its columns; happy-dom says 0. Returns the restore function. */
export function stubGridWidth(width = 1_000): () => void {
  const proto = HTMLElement.prototype;
  const saved = Object.getOwnPropertyDescriptor(proto, 'clientWidth');
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get: () => width });
  return () => {
    if (saved) Object.defineProperty(proto, 'clientWidth', saved);
    else delete (proto as unknown as Record<string, unknown>).clientWidth;
  };
}

/**
 * Before each test of the file: a fresh database, a viewport of `viewport` px with 120 px cards, and a
 * 1,000 px grid (five tiles a row); after it, the render unmounted and the layout restored.
 */
export function setUpGalleryTests(viewport?: number): void {
  let restore: Array<() => void> = [];
  beforeEach(async () => {
    await freshDatabase();
    restore = [stubLayout(viewport), stubGridWidth()];
  });
  afterEach(() => {
    cleanup();
    for (const r of restore) r();
    restore = [];
  });
}

/**
 * What a test gives the Gallery: the screen's props and, flat beside them, the stores the app provides by
 * context (this connection's, the kept copies, the team's), so a test names only what it is about.
 */
export interface GalleryProps extends GalleryScreenProps, GalleryData {
  keepers?: KeepersStore | null;
  /** The team's stars and ratings (the team space on). */
  teamPicks?: TeamPicks;
  earlier?: EarlierSource | null;
  reviewTeam?: ReviewTeam | null;
}

/** The screen inside the contexts the app provides (app/studio-views.tsx). */
function GalleryInContext(props: GalleryProps) {
  const { history, judgements, hidden, reviews, keepers, teamPicks, earlier, reviewTeam, ...screen } = props;
  const team = {
    picks: teamPicks ? { subscribe: NO_SUBSCRIBE, snapshot: () => teamPicks } : null,
    earlier: earlier ?? null,
    reviewTeam: reviewTeam ?? null,
  };
  return (
    <KeptCopyContext value={keepers ?? null}>
      <GalleryDataContext value={{ history, judgements, hidden, reviews }}>
        <GalleryTeamContext value={team}>
          <GalleryScreen {...screen} />
        </GalleryTeamContext>
      </GalleryDataContext>
    </KeptCopyContext>
  );
}

/** The Gallery over `entries`, with fresh judgements and hidden tasks, the handlers spies; `props` win. */
export async function renderGallery(entries: HistoryEntry[], props: Partial<GalleryProps> = {}) {
  const all: GalleryProps = {
    history: await storeWith(entries),
    judgements: await JudgementStore.open(CONNECTION, { db }),
    hidden: await HiddenTasks.open(CONNECTION, { db }),
    reviews: null,
    filter: NO_GALLERY_FILTER,
    onFilter: vi.fn(),
    onRemix: vi.fn(),
    onUseAsInput: vi.fn(),
    onAddToComparison: vi.fn(),
    ...props,
  };
  const view = render(<GalleryInContext {...all} />);
  /** Renders the same screen again with `more` props over the first ones. */
  const rerenderWith = (more: Partial<GalleryProps>) =>
    view.rerender(<GalleryInContext {...all} {...more} />);
  return { ...view, props: all, rerenderWith };
}
