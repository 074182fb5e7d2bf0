import { toCsv } from '../../../lib/csv-export';
import type { ModelReport } from '../../../model/compare/model-report';
import type { ModelNames } from './report-content';
import { criterionOf, modelLabel, reportCriteria } from './report-content';

// "Export report" as CSV: the dialog's table, one row per model and version in the report's order, for a
// spreadsheet. Through the studio's one CSV writer (lib/csv-export.ts): RFC 4180, and a name that starts
// like a formula (=, +, -, @, tab, carriage return) is written as text, never run: model names come from
// the catalog. The columns are named as the studio's other CSV files name theirs (the Leaderboard's):
// short English ids that a sheet or a script can rely on in every language. Numbers are as computed
// (rates as fractions, times in seconds), not rounded for reading; a figure with no data is left empty.
// The board's criteria follow, one column each, named `criterion: <name>` (the name as the board has it),
// the average of everyone's 1-5 scores.

const COLUMNS = [
  'place',
  'model',
  'version',
  'model_id',
  'version_id',
  'rating',
  'rating_ci95_low',
  'rating_ci95_high',
  'rank_best',
  'rank_worst',
  'preliminary',
  'chosen',
  'wins',
  'losses',
  'ties',
  'credits_per_output',
  'median_run_time_s',
  'p95_run_time_s',
  'p95_runs',
  'failure_rate',
  'moderation_rate',
  'outputs',
  'votes',
] as const;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** `chosen`: the column key of the board's decision in force (its model's row says true). */
export function reportCsv(report: ModelReport, names: ModelNames, chosen: string | null = null): string {
  const criteria = reportCriteria(report);
  const rows = report.models.map((m, i) => {
    const { name, version } = modelLabel(m, names);
    const r = m.rating;
    return [
      i + 1,
      name,
      version,
      m.modelId,
      m.versionId,
      r && Math.round(r.point),
      r && Math.round(r.low),
      r && Math.round(r.high),
      r?.bestRank,
      r?.worstRank,
      m.preliminary,
      m.key === chosen,
      m.wins,
      m.losses,
      m.ties,
      m.creditsPerOutput === null ? null : round(m.creditsPerOutput, 4),
      m.runTime && round(m.runTime.medianMs / 1000, 3),
      m.runTime && round(m.runTime.p95Ms / 1000, 3),
      m.runTime?.samples,
      m.failureRate === null ? null : round(m.failureRate, 4),
      m.moderationRate === null ? null : round(m.moderationRate, 4),
      m.outputs,
      m.votes,
      ...criteria.map((c) => {
        const avg = criterionOf(m, c);
        return avg && round(avg.mean, 3);
      }),
    ];
  });
  return toCsv([...COLUMNS, ...criteria.map((c) => `criterion: ${c}`)], rows);
}

/**
 * The exported files' name: the board's (without what a file name may not hold, as the contact sheet's),
 * then "-report" and the extension.
 */
export function reportFileName(boardName: string, fallback: string, extension: 'html' | 'csv'): string {
  const name = boardName.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || fallback;
  return `${name}-report.${extension}`;
}
