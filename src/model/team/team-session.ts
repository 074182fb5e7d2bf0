import * as Y from 'yjs';
import type { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../history/history-types';
import { TeamArchive } from './team-archive';
import { EarlierSaid } from './team-attached';
import { TeamConnection, type TeamConnectionOptions } from './team-connection';
import { ROOTS, rootMap } from './team-doc';
import type { LocalJudgements } from './team-judgements';
import { TeamBoards } from '../compare/team-boards';
import { TeamComments } from './team-comments';
import { TeamJudgements } from './team-judgements';
import { TeamLibrary } from './team-library';
import { TeamReviews, type LocalReviews } from './team-reviews';
import { TeamSearches, type LocalSearches } from './team-searches';
import { TeamTags, type LocalTags } from './team-tags';
import { TeamVotes } from '../compare/team-votes';
import { TeamMembers } from './team-members';
import { yieldToMain } from '../../lib/yield-to-main';
import { openLocalCopy } from './team-local-copy';
import { preloadRoom } from './team-preload';
import { TeamShare, type OwnItem } from './team-share';
import { TeamSpace } from './team-space';
import { bridgeHistory, TeamTasks } from './team-tasks';

// One member's team space while it is on (docs/team-space.md): the shared document, its connection, and
// every part of the studio's model mapped onto it. The app loads this module on demand (import()), when
// the member turns the team space on, so the studio's first load carries no Yjs; features get the stores
// it makes and import only their types.

export interface TeamSessionOptions extends Omit<TeamConnectionOptions, 'localName'> {
  /** The key's id from GET /me: this member. */
  memberId: string;
  /** The name the others see; the member may change it. */
  displayName: string;
  /** This device's history: the team's tasks are shown in it, and its own shared from it. */
  history: HistoryStore;
  /** This connection's id (a hash of Base URL and key): names this device's copy of the room. */
  connectionId: string;
  /** Own tasks created since then are shared as they come (the member shares older ones on request). */
  sharedSince: number;
  /** This device's stars and ratings: this member's go to the team (Team picks), from now on. */
  judgements?: LocalJudgements | null;
  /** This device's reviews of outputs: this member's go to the team, from now on (rooms of version 4 on). */
  reviews?: LocalReviews | null;
  /** This device's tags of outputs: this member's go to the team, from now on (rooms of version 5 on). */
  tags?: LocalTags | null;
  /** This device's saved searches: this member's go to the team, from now on (rooms of version 5 on). */
  searches?: LocalSearches | null;
  now?: () => number;
  /**
   * A fresh copy of the room (the last one was dropped after a refused change): this member's items are
   * shared again once the server's copy is in, so each is compared with what the team already holds.
   */
  afresh?: boolean;
  /** The server's document limit (/config.json), for this member's share of the room; null: unknown. */
  maxDocumentBytes?: number | null;
  /** Tasks this member took out of the team (Free space): not shared again from this device. */
  withdrawnTasks?: Iterable<string>;
  /** Told when tasks are taken out of the team (`out`) or put back (an Undo), to remember on the device. */
  onWithdrawn?: (taskIds: readonly string[], out: boolean) => void;
}

export class TeamSession {
  readonly space: TeamSpace;
  readonly connection: TeamConnection;
  readonly members: TeamMembers;
  readonly tasks: TeamTasks;
  readonly library: TeamLibrary;
  readonly judgements: TeamJudgements;
  /** Everyone's reviews of outputs (Approve, Needs changes, Reject). */
  readonly reviews: TeamReviews;
  /** Everyone's tags of outputs (the search finds an output by anyone's: tagsByOutput). */
  readonly tags: TeamTags;
  /** Everyone's saved searches, with who saved each (savedSearchesOf). */
  readonly searches: TeamSearches;
  readonly comments: TeamComments;
  readonly boards: TeamBoards;
  readonly votes: TeamVotes;
  /** This member's share of the room (what they may still write before the server refuses). */
  readonly share: TeamShare;
  /** The team's earlier tasks, read from the server as the History reaches them. */
  readonly earlier: TeamArchive;
  private bridge: ReturnType<typeof bridgeHistory> | null = null;
  private stopJudgements: () => void = () => undefined;
  private stopReviews: () => void = () => undefined;
  private stopTags: () => void = () => undefined;
  private stopSearches: () => void = () => undefined;
  private stopWaiting: () => void = () => undefined;
  private readonly stopMeta: () => void;
  /** The room is being read in pieces (the preload). */
  private joining = false;
  private closed = false;

  constructor(private readonly options: TeamSessionOptions) {
    const now = options.now ?? Date.now;
    this.space = new TeamSpace(new Y.Doc(), options.memberId, now);
    // The same origin and path as the socket: ws(s)://host/sync -> http(s)://host/sync.
    const baseUrl = options.url.replace(/^ws/, 'http');
    this.share = new TeamShare(this.space, options.maxDocumentBytes);
    this.members = new TeamMembers(this.space);
    this.tasks = new TeamTasks(this.space, this.share, options.withdrawnTasks);
    this.library = new TeamLibrary(this.space, this.share);
    // What the server moved out of the room with earlier tasks: the pages bring it, both read it.
    const said = new EarlierSaid();
    this.judgements = new TeamJudgements(this.space, this.share, said);
    this.reviews = new TeamReviews(this.space, this.share);
    this.tags = new TeamTags(this.space, this.share);
    this.searches = new TeamSearches(this.space, this.share);
    this.comments = new TeamComments(this.space, undefined, said);
    this.boards = new TeamBoards(this.space);
    this.votes = new TeamVotes(this.space);
    this.connection = new TeamConnection(this.space, {
      // The room's tasks come in pieces: the history hears of them once, when all are in.
      // The earlier tasks are offered once the room's own are in (its end would be in view before).
      preload: async (space, stopped) => {
        const release = this.tasks.hold();
        this.joining = true;
        try {
          await preloadRoom(space.doc, { baseUrl, token: options.token, stopped });
        } finally {
          release();
          this.joining = false;
          this.earlier.refresh();
        }
      },
      // This device's copy comes in pieces too, the history told once.
      createPersistence: (space, name) => openLocalCopy(space.doc, name, { hold: () => this.tasks.hold() }),
      ...options,
      localName: `media-studio-team:${options.connectionId}:${options.room}`,
    });
    this.earlier = new TeamArchive({
      baseUrl,
      token: options.token,
      history: options.history,
      memberId: options.memberId,
      nameOf: this.members.nameOf,
      archivedBefore: () => this.tasks.archivedBefore(),
      said,
    });
    const meta = rootMap(this.space.doc, ROOTS.meta);
    const onMeta = () => {
      if (!this.joining) this.earlier.refresh();
    };
    meta.observe(onMeta);
    this.stopMeta = () => meta.unobserve(onMeta);
  }

  /**
   * Reads this device's copy, joins under the display name, starts sharing, then connects. A fresh copy
   * starts sharing once the server's copy is in (the bridges then write only what the team lacks).
   */
  async start(): Promise<void> {
    await this.connection.start();
    // The sharing's start in a task of its own, not in the one that finished reading the copy.
    await yieldToMain();
    if (this.closed) return;
    if (!this.options.afresh) return this.startSharing();
    const off = this.connection.subscribe(() => {
      if (this.connection.snapshot().link !== 'online') return;
      off();
      this.startSharing();
    });
    this.stopWaiting = off;
  }

  private startSharing(): void {
    this.stopWaiting = () => undefined;
    this.members.setName(this.options.displayName);
    this.bridge = bridgeHistory(this.options.history, this.tasks, {
      sharedSince: this.options.sharedSince,
      nameOf: this.members.nameOf,
      onNames: this.members.subscribe,
      isOnline: (id) => this.members.snapshot().some((m) => m.id === id && m.online),
      earlier: this.earlier,
    });
    this.bridgeJudgements(false);
  }

  private bridgeJudgements(shareExisting: boolean): void {
    this.stopJudgements();
    const local = this.options.judgements;
    this.stopJudgements = local ? this.judgements.bridge(local, { shareExisting }) : () => undefined;
    this.stopReviews();
    const reviews = this.options.reviews;
    this.stopReviews = reviews ? this.reviews.bridge(reviews, { shareExisting }) : () => undefined;
    this.stopTags();
    const tags = this.options.tags;
    this.stopTags = tags ? this.tags.bridge(tags, { shareExisting }) : () => undefined;
    this.stopSearches();
    const searches = this.options.searches;
    this.stopSearches = searches ? this.searches.bridge(searches, { shareExisting }) : () => undefined;
  }

  get memberId(): string {
    return this.space.memberId;
  }

  /** This device's tasks from before the team space was turned on: shared only when the member says so. */
  earlierTasks(): HistoryEntry[] {
    return this.bridge?.earlier() ?? [];
  }

  /**
   * Shares this device's earlier tasks, and its stars, ratings, reviews, tags and saved searches, when the
   * member says so.
   */
  shareEarlierTasks(): number {
    this.bridgeJudgements(true);
    return this.bridge?.shareEarlier() ?? 0;
  }

  /**
   * Takes these of this member's prompts and tasks' copies out of the team (Free space); the device's own
   * history and prompt library keep theirs, and the tasks are not shared again from here. Answers the Undo.
   */
  freeSpace(items: readonly Pick<OwnItem, 'root' | 'key'>[]): () => void {
    const taskIds = items.filter((i) => i.root === 'tasks').map((i) => i.key);
    this.tasks.withdraw(taskIds);
    const undo = this.share.remove(items);
    this.options.onWithdrawn?.(taskIds, true);
    return () => {
      undo();
      this.tasks.restore(taskIds);
      this.options.onWithdrawn?.(taskIds, false);
    };
  }

  /**
   * Stops the session. `dropCopy`: this device's copy of the room is deleted too (a refused change sits in
   * it); the member's own stores on the device are never touched.
   */
  async close(options: { dropCopy?: boolean } = {}): Promise<void> {
    this.closed = true;
    this.stopWaiting();
    this.stopMeta();
    this.earlier.close();
    this.bridge?.stop();
    this.stopJudgements();
    this.stopReviews();
    this.stopTags();
    this.stopSearches();
    for (const store of [
      this.judgements,
      this.reviews,
      this.tags,
      this.searches,
      this.comments,
      this.boards,
      this.votes,
    ])
      store.destroy();
    this.members.destroy();
    this.tasks.destroy();
    this.library.destroy();
    this.share.destroy();
    await this.connection.close(options);
    this.space.destroy();
    this.space.doc.destroy();
  }
}
