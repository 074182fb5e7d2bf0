import { z } from 'zod/mini';
import { db } from '../db';
import { writeNow } from '../history/history-persistence';
import type { HistorySection } from '../history/history-store';
import { toCsv } from '../../lib/csv-export';
import { rateChoices } from './rating-model';

// Blind comparison votes (product-notes §3 "Compare"): on a blind board the user picks the best cell
// of each row, or marks a tie. One vote per board row, kept per connection in the `votes` store (never
// the key), read back through zod. Every vote of a category feeds its leaderboard.

const CandidateSchema = z.object({
  /** The board's column key: `${modelId}@${versionId}`. */
  key: z.string().check(z.minLength(1)),
  modelId: z.string().check(z.minLength(1)),
  versionId: z.string().check(z.minLength(1)),
  name: z.string(),
  versionName: z.string(),
});
export type Candidate = z.infer<typeof CandidateSchema>;

export const VoteSchema = z.object({
  connectionId: z.string().check(z.minLength(1)),
  /** `${boardId}|${rowId}`: voting again on a row replaces its vote. */
  id: z.string().check(z.minLength(1)),
  boardId: z.string().check(z.minLength(1)),
  rowId: z.string().check(z.minLength(1)),
  /** "image/default" */
  category: z.string().check(z.minLength(1)),
  /** The cells that were judged (each with a result), at least two. */
  candidates: z.array(CandidateSchema).check(z.minLength(2)),
  /** The key of the best candidate; null is a tie. */
  winner: z.nullable(z.string()),
  at: z.number(),
});
export type Vote = z.infer<typeof VoteSchema>;

export const voteId = (boardId: string, rowId: string): string => `${boardId}|${rowId}`;

const parseAll = (raw: unknown[]): Vote[] =>
  raw.flatMap((r) => {
    const parsed = VoteSchema.safeParse(r);
    return parsed.success &&
      (parsed.data.winner === null || parsed.data.candidates.some((c) => c.key === parsed.data.winner))
      ? [parsed.data]
      : [];
  });

/** Every vote of this connection, oldest first; records that do not parse are skipped. */
export async function listVotes(connectionId: string): Promise<Vote[]> {
  const raw = await (await db()).getAllFromIndex('votes', 'byConnection', connectionId);
  return parseAll(raw).sort((a, b) => a.at - b.at);
}

/** Written at once (writeNow): a vote cast just before a reload counts after it. */
export async function saveVote(vote: Vote): Promise<void> {
  const parsed = VoteSchema.parse(vote);
  await writeNow('votes', (store) => [store.put(parsed)]);
}

export async function deleteVote(connectionId: string, id: string): Promise<void> {
  await writeNow('votes', (store) => [store.delete([connectionId, id])]);
}

/**
 * The votes as they travel in the history file: without the connection (the importer's own applies).
 * @internal
 */
export async function exportVotes(connectionId: string): Promise<unknown[]> {
  return (await listVotes(connectionId)).map(({ connectionId: _c, ...rest }) => rest);
}

/**
 * Adds the votes of an exported file to this connection's; unreadable ones are skipped and counted.
 * @internal
 */
export async function importVotes(
  connectionId: string,
  items: readonly unknown[],
): Promise<{ added: number; skipped: number }> {
  const votes = parseAll(items.map((r) => (typeof r === 'object' && r ? { ...r, connectionId } : r)));
  const database = await db();
  const tx = database.transaction('votes', 'readwrite');
  for (const vote of votes) void tx.store.put(vote);
  await tx.done;
  return { added: votes.length, skipped: items.length - votes.length };
}

/** This connection's votes as a section of the history file (history-store's HistorySection). */
export function votesHistorySection(connectionId: string): HistorySection {
  return {
    export: () => exportVotes(connectionId),
    import: async (data) => {
      if (!Array.isArray(data)) return;
      const { added, skipped } = await importVotes(connectionId, data);
      return { kept: added, skipped };
    },
  };
}

// ---- the leaderboard -------------------------------------------------------------------------------

export interface LeaderboardRow {
  key: string;
  name: string;
  versionName: string;
  /** Rows this model won, lost (another won) and tied. */
  wins: number;
  losses: number;
  ties: number;
  votes: number;
  /** (wins + ties / 2) / votes */
  winRate: number;
  rating: number;
  low: number;
  high: number;
}

/** The categories that have votes, in the order first voted. */
export const votedCategories = (votes: readonly Vote[]): string[] => [
  ...new Set(votes.map((v) => v.category)),
];

/** The leaderboard of one category: every model judged there, best rating first. */
export function leaderboard(votes: readonly Vote[], category: string): LeaderboardRow[] {
  const inCategory = votes.filter((v) => v.category === category);
  const rows = new Map<string, LeaderboardRow>();
  for (const vote of inCategory) {
    for (const c of vote.candidates) {
      const row = rows.get(c.key) ?? {
        key: c.key,
        name: c.name,
        versionName: c.versionName,
        wins: 0,
        losses: 0,
        ties: 0,
        votes: 0,
        winRate: 0,
        rating: 0,
        low: 0,
        high: 0,
      };
      // The latest vote names it: a renamed model shows its current name.
      row.name = c.name;
      row.versionName = c.versionName;
      row.votes++;
      if (vote.winner === null) row.ties++;
      else if (vote.winner === c.key) row.wins++;
      else row.losses++;
      rows.set(c.key, row);
    }
  }
  // One vote is one choice among its candidates (rating-model.ts, docs/leaderboard.md).
  const ratings = rateChoices(
    [...rows.keys()],
    inCategory.map((v) => ({ candidates: v.candidates.map((c) => c.key), winner: v.winner })),
  );
  return ratings.map((r) => {
    const row = rows.get(r.id)!;
    return {
      ...row,
      winRate: row.votes ? (row.wins + row.ties / 2) / row.votes : 0,
      rating: r.rating,
      low: r.low,
      high: r.high,
    };
  });
}

/** The leaderboard as CSV (untrusted names are guarded against spreadsheet formulas). */
export function leaderboardCsv(category: string, rows: readonly LeaderboardRow[]): string {
  return toCsv(
    [
      'rank',
      'category',
      'model',
      'version',
      'wins',
      'losses',
      'ties',
      'votes',
      'win_rate',
      'rating',
      'ci95_low',
      'ci95_high',
    ],
    rows.map((r, i) => [
      i + 1,
      category,
      r.name,
      r.versionName,
      r.wins,
      r.losses,
      r.ties,
      r.votes,
      r.winRate.toFixed(3),
      Math.round(r.rating),
      Math.round(r.low),
      Math.round(r.high),
    ]),
  );
}
