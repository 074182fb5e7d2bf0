import * as Y from 'yjs';
import type { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../history/history-types';
import { TeamConnection, type TeamConnectionOptions } from './team-connection';
import type { LocalJudgements } from './team-judgements';
import { TeamBoards } from './team-boards';
import { TeamComments } from './team-comments';
import { TeamJudgements } from './team-judgements';
import { TeamLibrary } from './team-library';
import { TeamVotes } from './team-votes';
import { TeamMembers } from './team-members';
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
  now?: () => number;
}

export class TeamSession {
  readonly space: TeamSpace;
  readonly connection: TeamConnection;
  readonly members: TeamMembers;
  readonly tasks: TeamTasks;
  readonly library: TeamLibrary;
  readonly judgements: TeamJudgements;
  readonly comments: TeamComments;
  readonly boards: TeamBoards;
  readonly votes: TeamVotes;
  private bridge: ReturnType<typeof bridgeHistory> | null = null;
  private stopJudgements: () => void = () => undefined;

  constructor(private readonly options: TeamSessionOptions) {
    const now = options.now ?? Date.now;
    this.space = new TeamSpace(new Y.Doc(), options.memberId, now);
    this.connection = new TeamConnection(this.space, {
      ...options,
      localName: `media-studio-team:${options.connectionId}:${options.room}`,
    });
    this.members = new TeamMembers(this.space);
    this.tasks = new TeamTasks(this.space);
    this.library = new TeamLibrary(this.space);
    this.judgements = new TeamJudgements(this.space);
    this.comments = new TeamComments(this.space);
    this.boards = new TeamBoards(this.space);
    this.votes = new TeamVotes(this.space);
  }

  /** Reads this device's copy, joins under the display name, starts sharing, then connects. */
  async start(): Promise<void> {
    const started = this.connection.start();
    await started;
    this.members.setName(this.options.displayName);
    this.bridge = bridgeHistory(this.options.history, this.tasks, {
      sharedSince: this.options.sharedSince,
      nameOf: this.members.nameOf,
      onNames: this.members.subscribe,
    });
    this.bridgeJudgements(false);
  }

  private bridgeJudgements(shareExisting: boolean): void {
    this.stopJudgements();
    const local = this.options.judgements;
    this.stopJudgements = local ? this.judgements.bridge(local, { shareExisting }) : () => undefined;
  }

  get memberId(): string {
    return this.space.memberId;
  }

  /** This device's tasks from before the team space was turned on: shared only when the member says so. */
  earlierTasks(): HistoryEntry[] {
    return this.bridge?.earlier() ?? [];
  }

  /** Shares this device's earlier tasks, and its stars and ratings, when the member says so. */
  shareEarlierTasks(): number {
    this.bridgeJudgements(true);
    return this.bridge?.shareEarlier() ?? 0;
  }

  async close(): Promise<void> {
    this.bridge?.stop();
    this.stopJudgements();
    for (const store of [this.judgements, this.comments, this.boards, this.votes]) store.destroy();
    this.members.destroy();
    this.tasks.destroy();
    this.library.destroy();
    await this.connection.close();
    this.space.destroy();
    this.space.doc.destroy();
  }
}
