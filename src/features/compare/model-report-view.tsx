import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import { Alert } from '../../components/alert';
import { Dialog } from '../../components/dialog';
import { Segmented } from '../../components/segmented';
import { Spinner } from '../../components/spinner';
import { categoryLabel } from '../../model/category-labels';
import { formatCount, formatCredits, formatOneDecimal, formatPercent, formatSeconds } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import type { HistoryEntry } from '../../model/history/history-types';
import {
  modelReport,
  scoresOfBoard,
  type ModelFigures,
  type ModelReport,
  type ModelReportInput,
  type ReportBoard,
} from '../../model/compare/model-report';
import type { Vote } from '../../model/compare/votes';
import { CHART_H, CHART_W, chartLayout } from './report-export/front-chart';
import {
  chartModelsOf,
  chartWordsOf,
  criterionOf,
  modelLabel,
  reportCriteria,
  type ChartKind,
  type ModelNames,
} from './report-export/report-content';
import { currentDecision, type Board, type Decision } from '../../model/compare/boards';
import { DecisionSummary } from './decision';
import { ReportExportButtons } from './report-export/report-export-buttons';

// The Model report of one board (product-notes "Deciding with evidence"): the figures of
// model/compare/model-report.ts per model and version, in the module's order, as a table (the accessible
// form) and two charts beside it, quality against credits per output and against median run time, with
// the Pareto front (the models no other beats on both) drawn as a line through filled marks. A member
// still blind on the board sees no results: names, cost and time stay hidden there until Reveal. Export
// report (report-export/) saves the same table, charts and the board's pictures as one HTML page, and the
// figures as CSV; a blind member, who sees no figures, can export none.

const th = 'px-2 py-1.5 text-xs font-medium text-slate-600 dark:text-slate-400';
const td = 'px-2 py-1.5 text-end whitespace-nowrap tabular-nums align-top';
const small = 'block text-xs text-slate-600 dark:text-slate-400';

function NoFigure() {
  const { t } = useLingui();
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">
        {t({ message: 'none', comment: 'a figure of the model report with no data' })}
      </span>
    </>
  );
}

/** Quality (rating, its interval as an error bar) against a cost, lower being better; the front marked. */
function FrontChart({ report, names, kind }: { report: ModelReport; names: ModelNames; kind: ChartKind }) {
  // The layout and the words are the exported page's too (report-export/front-chart.ts): one chart, drawn
  // here as elements and there as a string.
  const models = chartModelsOf(report, names, kind);
  const { title, axis, rating, summary, formatCost } = chartWordsOf(kind, models);
  const layout = chartLayout(models);
  if (!layout)
    return (
      <figure className="rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-700">
        <figcaption className="text-sm font-medium">{title}</figcaption>
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          <Trans>No model has both a rating and this figure yet.</Trans>
        </p>
      </figure>
    );
  const { x0, y0, xEnd, yTop } = layout;
  return (
    <figure className="rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-700">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <svg
        viewBox={`0 0 ${CHART_W} ${CHART_H}`}
        role="img"
        aria-label={summary}
        className="mt-1 h-auto w-full overflow-visible text-slate-700 dark:text-slate-300"
        // The chart is drawn left to right in every language: its numbers read as a graph, not as text.
        direction="ltr"
      >
        <g className="stroke-slate-300 dark:stroke-slate-600" strokeWidth={1}>
          <line x1={x0} y1={y0} x2={xEnd} y2={y0} />
          <line x1={x0} y1={yTop} x2={x0} y2={y0} />
        </g>
        {layout.ticks.map((tick) => (
          <g key={tick.value}>
            <line
              x1={x0}
              x2={xEnd}
              y1={tick.y}
              y2={tick.y}
              className="stroke-slate-200 dark:stroke-slate-700"
              strokeWidth={1}
            />
            <text x={x0 - 4} y={tick.y + 4} textAnchor="end" fontSize={11} className="fill-current">
              {formatCount(tick.value)}
            </text>
          </g>
        ))}
        <g className="fill-current" fontSize={11}>
          <text x={x0} y={y0 + 14} textAnchor="middle">
            {formatCount(0)}
          </text>
          <text x={layout.maxCostX} y={y0 + 14} textAnchor="middle">
            {formatCost(layout.maxCost)}
          </text>
          <text x={(x0 + xEnd) / 2} y={CHART_H - 6} textAnchor="middle">
            {axis}
          </text>
          <text
            x={12}
            y={(yTop + y0) / 2}
            textAnchor="middle"
            transform={`rotate(-90 12 ${(yTop + y0) / 2})`}
          >
            {rating}
          </text>
        </g>
        {layout.frontLine && (
          <polyline
            data-front-line=""
            points={layout.frontLine}
            fill="none"
            className="stroke-indigo-600 dark:stroke-indigo-400"
            strokeWidth={2}
            strokeDasharray="5 3"
          />
        )}
        {layout.marks.map(({ model: m, x, y, yHigh, yLow }) => (
          <g key={m.key} data-model={m.key} data-front={m.front ? 'true' : 'false'}>
            <line
              x1={x}
              x2={x}
              y1={yHigh}
              y2={yLow}
              className="stroke-slate-500 dark:stroke-slate-400"
              strokeWidth={1.5}
            />
            <line
              x1={x - 4}
              x2={x + 4}
              y1={yHigh}
              y2={yHigh}
              className="stroke-slate-500 dark:stroke-slate-400"
            />
            <line
              x1={x - 4}
              x2={x + 4}
              y1={yLow}
              y2={yLow}
              className="stroke-slate-500 dark:stroke-slate-400"
            />
            <circle
              cx={x}
              cy={y}
              r={m.front ? 6 : 5}
              strokeWidth={2}
              className={
                m.front
                  ? 'fill-indigo-600 stroke-indigo-600 dark:fill-indigo-400 dark:stroke-indigo-400'
                  : 'fill-white stroke-slate-500 dark:fill-slate-900 dark:stroke-slate-400'
              }
            />
            <text x={x + 9} y={y - 6} fontSize={12} fontWeight={600} className="fill-current">
              {formatCount(m.place)}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

export function ModelReportDialog({
  open,
  onOpenChange,
  board,
  tasks,
  votes,
  names,
  blind,
  inTeam,
  decisions = [],
  memberName = () => '',
  loadCategory,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The board (its name, when it has one, names the exported files; its criteria and scores, if any). */
  board: ReportBoard & Partial<Pick<Board, 'name' | 'criteria' | 'scores'>>;
  /** The tasks of the board's cells. */
  tasks: readonly HistoryEntry[];
  /** The votes on this board: in a team, every member's. */
  votes: readonly Vote[];
  names: ModelNames;
  /** This member is still blind on the board: no results until Reveal. */
  blind: boolean;
  inTeam: boolean;
  /** The board's decisions (the one in force marks its model), and who made them as names. */
  decisions?: readonly Decision[];
  memberName?: (id: string) => string;
  /** What a report over every board of the board's category reads (absent: this board only). */
  loadCategory?: () => Promise<ModelReportInput>;
}) {
  const { t } = useLingui();
  const [scope, setScope] = useState<'board' | 'category'>('board');
  const [categoryInput, setCategoryInput] = useState<ModelReportInput | null>(null);
  const wantsCategory = open && !blind && scope === 'category' && loadCategory !== undefined;
  useEffect(() => {
    if (!wantsCategory) return;
    let live = true;
    void loadCategory().then((input) => live && setCategoryInput(input));
    return () => {
      live = false;
    };
    // Read once each time the category is chosen (or the dialog opened on it), not at every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantsCategory]);
  const categoryReport = useMemo(
    () => (wantsCategory && categoryInput ? modelReport(categoryInput) : null),
    [wantsCategory, categoryInput],
  );
  const boardCount = categoryInput?.boards.length ?? 0;
  const decision = currentDecision(decisions);
  const decidedBy = (id: string) => (id ? memberName(id) || t`A member` : t`You`);
  const labelOf = (key: string) => {
    const known = names(key);
    return known ? `${known.name} · ${known.versionName}` : key;
  };
  // The board's cells are a new array at every render (a poll, a quote): the report (a bootstrap of the
  // votes) is computed again only when a task's figures change.
  const taskSignature = tasks
    .map((e) => `${e.taskId} ${e.status} ${e.completedAt} ${e.creditsCharged} ${e.outputs.length}`)
    .join('\n');
  const boardReport = useMemo(
    () =>
      open && !blind && scope === 'board'
        ? modelReport({
            boards: [board],
            tasks,
            votes,
            scores: scoresOfBoard({
              id: board.id,
              criteria: board.criteria ?? [],
              scores: board.scores ?? {},
            }),
          })
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [open, blind, scope, board, taskSignature, votes],
  );
  const report = scope === 'category' ? categoryReport : boardReport;
  /** This board's chosen model: marked in its own report, not in the category's. */
  const chosen = scope === 'board' ? decision?.column : undefined;
  const categoryName = categoryLabel(board.setup.category);
  const threshold = formatCount(report?.preliminaryBelow ?? 0);
  const nameOf = (m: ModelFigures) => modelLabel(m, names);
  const criteria = report ? reportCriteria(report) : [];

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t`Model report`} wide>
      {!blind && loadCategory && (
        <div className="mb-3">
          <Segmented
            aria-label={t`Report on`}
            value={scope}
            onChange={(v) => setScope(v === 'category' ? 'category' : 'board')}
            options={[
              { value: 'board', label: t`This board` },
              { value: 'category', label: t`All boards of ${categoryName}` },
            ]}
          />
        </div>
      )}
      {blind ? (
        <Alert tone="info" title={t`You are still blind on this board.`} live={false}>
          <Trans>
            The report names the models and shows their cost and time: it opens once you press Reveal, so it
            cannot sway your votes.
          </Trans>
        </Alert>
      ) : scope === 'category' && !categoryReport ? (
        <Spinner label={t`Reading the boards`} />
      ) : !report || report.models.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Trans>Add models and prompts, run the board, then vote blind: the report builds on those.</Trans>
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          {scope === 'board' ? (
            <DecisionSummary decisions={decisions} nameOf={labelOf} memberName={decidedBy} />
          ) : (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {plural(boardCount, {
                one: 'Every board of this category you can see the results of: # board.',
                other: 'Every board of this category you can see the results of: # boards.',
              })}
            </p>
          )}
          <div
            className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
            tabIndex={0}
            role="region"
            aria-label={t`Model report table`}
          >
            <table className="w-full min-w-[52rem] text-start text-sm [:where(&_th)]:text-start">
              <caption className="sr-only">
                {plural(report.votes, {
                  one: 'Models of this board, best first, from # vote',
                  other: 'Models of this board, best first, from # votes',
                })}
              </caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    #
                  </th>
                  <th scope="col" className={th}>
                    <Trans>Model</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Rating (95 % interval)</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Wins / losses / ties</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Credits per output</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Median run time</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>p95 run time</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Failure rate</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Moderation rate</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Outputs</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Votes</Trans>
                  </th>
                  {criteria.map((c) => (
                    <th key={c} scope="col" className={`${th} text-end`}>
                      <span dir="auto">{displayText(c)}</span>{' '}
                      {t({
                        message: '(1-5)',
                        comment: 'after a criterion’s name in the report table: its scores run 1 to 5',
                      })}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.models.map((m, i) => {
                  const { name, version } = nameOf(m);
                  const r = m.rating;
                  const best = r ? formatCount(r.bestRank) : '';
                  const worst = r ? formatCount(r.worstRank) : '';
                  const wins = formatCount(m.wins);
                  const losses = formatCount(m.losses);
                  const ties = formatCount(m.ties);
                  return (
                    <tr key={m.key} className="border-t border-slate-100 dark:border-slate-800">
                      <td className="px-2 py-1.5 align-top tabular-nums">{formatCount(i + 1)}</td>
                      <th scope="row" className="px-2 py-1.5 align-top font-normal">
                        <span className="font-medium" dir="auto" translate="no">
                          {name}
                        </span>{' '}
                        <span
                          className="text-xs text-slate-600 dark:text-slate-400"
                          dir="auto"
                          translate="no"
                        >
                          {version}
                        </span>
                        {chosen === m.key && ' '}
                        {chosen === m.key && (
                          <span className="inline-block rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200">
                            <Trans comment="the model the board decided on, in the model report">
                              Chosen
                            </Trans>
                          </span>
                        )}
                        {m.preliminary && ' '}
                        {m.preliminary && (
                          <span
                            className="inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"
                            title={t`Fewer than ${threshold} votes: the rating may move a lot.`}
                          >
                            <Trans comment="a model of the report rated on too few votes">Preliminary</Trans>
                          </span>
                        )}
                      </th>
                      <td className={td}>
                        {r ? (
                          <>
                            <span className="font-semibold">{formatCount(Math.round(r.point))}</span>{' '}
                            <span className="text-xs text-slate-600 dark:text-slate-400">
                              ({formatCount(Math.round(r.low))}–{formatCount(Math.round(r.high))})
                            </span>
                            <span className={small}>
                              {r.bestRank === r.worstRank
                                ? t({
                                    message: `rank ${best}`,
                                    comment: 'the model’s rank in every resample',
                                  })
                                : t({
                                    message: `rank ${best}–${worst}`,
                                    comment: 'the spread of the model’s rank over the resamples: "rank 1–3"',
                                  })}
                            </span>
                          </>
                        ) : (
                          <NoFigure />
                        )}
                      </td>
                      <td className={td}>
                        {t({ message: `${wins} / ${losses} / ${ties}`, comment: 'wins / losses / ties' })}
                      </td>
                      <td className={td}>
                        {m.creditsPerOutput === null ? <NoFigure /> : formatCredits(m.creditsPerOutput)}
                      </td>
                      <td className={td}>
                        {m.runTime ? formatSeconds(m.runTime.medianMs / 1000) : <NoFigure />}
                      </td>
                      <td className={td}>
                        {m.runTime ? (
                          <>
                            {formatSeconds(m.runTime.p95Ms / 1000)}
                            <span className={small}>
                              {plural(m.runTime.samples, { one: 'p95 of # run', other: 'p95 of # runs' })}
                            </span>
                          </>
                        ) : (
                          <NoFigure />
                        )}
                      </td>
                      <td className={td}>
                        {m.failureRate === null ? <NoFigure /> : formatPercent(m.failureRate)}
                      </td>
                      <td className={td}>
                        {m.moderationRate === null ? <NoFigure /> : formatPercent(m.moderationRate)}
                      </td>
                      <td className={td}>{formatCount(m.outputs)}</td>
                      <td className={td}>{formatCount(m.votes)}</td>
                      {criteria.map((c) => {
                        const avg = criterionOf(m, c);
                        return (
                          <td key={c} className={td}>
                            {avg ? (
                              <>
                                {formatOneDecimal(avg.mean)}
                                <span className={small}>
                                  {plural(avg.scores, { one: '# score', other: '# scores' })}
                                </span>
                              </>
                            ) : (
                              <NoFigure />
                            )}
                          </td>
                        );
                      })}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <FrontChart report={report} names={names} kind="credits" />
            <FrontChart report={report} names={names} kind="time" />
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {inTeam
              ? plural(report.votes, {
                  one: 'From # blind vote of every member of the team on this board.',
                  other: 'From # blind votes of every member of the team on this board.',
                })
              : plural(report.votes, {
                  one: 'From # blind vote on this board.',
                  other: 'From # blind votes on this board.',
                })}{' '}
            <Trans>
              Models are ordered by the lower end of their rating’s interval: what their votes prove, not a
              lucky point. Preliminary ones (fewer than {threshold} votes) come after. On the charts, each
              mark is the model’s place in the table, its bar the rating’s interval; the filled marks joined
              by the dashed line are the front: no other model is both better and cheaper (or faster). p95: 95
              % of the runs took at most this long; under 20 runs, it is the slowest run.
            </Trans>
          </p>
          <ReportExportButtons
            board={board}
            boardName={scope === 'board' ? (board.name ?? '') : t`All boards of ${categoryName}`}
            pictures={scope === 'board'}
            tasks={tasks}
            names={names}
            report={report}
            inTeam={inTeam}
            blind={blind}
            decision={
              chosen !== undefined && decision
                ? {
                    name: labelOf(decision.column),
                    column: decision.column,
                    reason: decision.reason,
                    by: decidedBy(decision.by),
                    at: decision.at,
                  }
                : null
            }
          />
        </div>
      )}
    </Dialog>
  );
}
