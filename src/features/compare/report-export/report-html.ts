/* eslint-disable lingui/no-unlocalized-strings -- HTML, SVG and CSS markup written into the exported file, never shown as the studio's text: every word of the page goes through t. */
import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import {
  formatCount,
  formatCredits,
  formatDate,
  formatOneDecimal,
  formatPercent,
  formatSeconds,
} from '../../../lib/format';
import { directionOf, isLanguage } from '../../../lib/i18n/languages';
import { displayText } from '../../../lib/untrusted-text';
import type { ModelReport } from '../../../model/compare/model-report';
import type { ModelNames } from './report-content';
import { escapeHtml } from './escape-html';
import { chartLayout, chartSvg } from './front-chart';
import {
  CHART_KINDS,
  chartModelsOf,
  chartWordsOf,
  criterionOf,
  modelLabel,
  reportCriteria,
} from './report-content';

// "Export report" as one HTML page for people without the studio (product-notes "Deciding with
// evidence"): the board's name and the date, the models table with every figure the dialog shows, its two
// charts as inline SVG, and the prompts × models grid with each cell's picture. Pure: the pictures come in
// already made into data: URLs (report-images.ts), so this only writes text.
//
// The page must be safe and whole wherever it is opened:
// - No script at all, and a Content-Security-Policy that allows none (default-src 'none'), so even markup
//   that slipped through could neither run nor fetch anything; images only from data: URLs, styles only
//   from the page's own <style>.
// - No network: pictures are data: URLs (anything else given for one is left out), the charts are inline,
//   fonts are the system's.
// - Someone's text (the board's name, prompts, model names from the catalog) is escaped everywhere,
//   content and attributes alike (escape-html.ts).
// - Light and dark follow the reader's system; print is A4, light, with no row cut across two pages.

/** One cell of the grid as the page shows it: its picture, or a few words in its place. */
export interface ReportGridCell {
  /** A data:image URL; anything else is not put in the page. */
  picture: string | null;
  /** What stands in the picture's place (a status, "♪ audio"), or a caption under it. */
  note: string;
  /** Its reviews as words ("Approved by Ana"), newest first, each with its note. */
  reviews?: ReadonlyArray<{ byline: string; note: string }>;
}

export interface ReportGrid {
  columns: ReadonlyArray<{ key: string; name: string; version: string }>;
  rows: ReadonlyArray<{ prompt: string; cells: readonly ReportGridCell[] }>;
}

/** The board's decision in force, as the report names it (model and member as shown). */
export interface ReportDecision {
  name: string;
  column: string;
  reason: string;
  by: string;
  at: number;
}

export interface ReportDocument {
  boardName: string;
  /** The decision in force, when the board has one. */
  decision?: ReportDecision | null;
  createdAt: Date;
  report: ModelReport;
  names: ModelNames;
  /** The votes are every member's of a team (the note under the table says so). */
  inTeam: boolean;
  /** The board's prompts and pictures; null for a report over several boards (figures only). */
  grid: ReportGrid | null;
}

/**
 * The page's policy: nothing but inline styles and data: images, so no script runs and nothing loads.
 * @internal
 */
export const REPORT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const STYLE = `
:root { color-scheme: light dark; --fg: #0f172a; --muted: #475569; --bg: #ffffff; --line: #e2e8f0;
  --grid: #e2e8f0; --axis: #cbd5e1; --bar: #64748b; --accent: #4f46e5; --tile: #f1f5f9;
  --badge-bg: #fef3c7; --badge-fg: #78350f; --chosen-bg: #d1fae5; --chosen-fg: #064e3b; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e2e8f0; --muted: #94a3b8; --bg: #0f172a; --line: #1e293b; --grid: #334155;
    --axis: #475569; --bar: #94a3b8; --accent: #818cf8; --tile: #1e293b; --badge-bg: #78350f66;
    --badge-fg: #fde68a; --chosen-bg: #064e3b99; --chosen-fg: #a7f3d0; }
}
* { box-sizing: border-box; }
body { margin: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.1rem; margin: 28px 0 8px; }
.muted, .small { color: var(--muted); }
.small { display: block; font-size: 12px; }
.reviews { list-style: none; margin: 4px 0 0; padding: 0; font-size: 12px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 6px 8px; text-align: start; vertical-align: top; border-top: 1px solid var(--line); }
thead th { font-size: 12px; font-weight: 500; color: var(--muted); border-top: 0; }
.figures thead th:nth-child(n + 3) { text-align: end; }
.figures td { text-align: end; white-space: nowrap; font-variant-numeric: tabular-nums; }
.figures th[scope="row"] { font-weight: 400; }
.name { font-weight: 600; }
.badge { display: inline-block; padding: 1px 6px; border-radius: 4px; font-size: 12px; font-weight: 500;
  background: var(--badge-bg); color: var(--badge-fg); }
.badge.chosen { background: var(--chosen-bg); color: var(--chosen-fg); }
.decision .reason { white-space: pre-wrap; overflow-wrap: anywhere; }
.note { font-size: 12px; color: var(--muted); max-width: 60rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 12px; }
figure { margin: 0; padding: 12px; border: 1px solid var(--line); border-radius: 8px; }
figcaption { font-size: 14px; font-weight: 500; }
.chart { width: 100%; height: auto; overflow: visible; color: var(--fg); }
.chart text { fill: currentColor; }
.chart .axis { stroke: var(--axis); stroke-width: 1; }
.chart .grid { stroke: var(--grid); stroke-width: 1; }
.chart .bar { stroke: var(--bar); stroke-width: 1.5; }
.chart .mark { fill: var(--bg); stroke: var(--bar); stroke-width: 2; }
.chart .mark.front { fill: var(--accent); stroke: var(--accent); }
.chart .front-line { stroke: var(--accent); stroke-width: 2; }
.outputs { table-layout: fixed; }
.outputs thead th:first-child { width: 12rem; }
.outputs th[scope="row"] { font-weight: 400; white-space: pre-wrap; overflow-wrap: anywhere; }
.tile { display: flex; align-items: center; justify-content: center; aspect-ratio: 1; background: var(--tile);
  border-radius: 4px; overflow: hidden; color: var(--muted); font-size: 13px; text-align: center; }
.tile img { display: block; width: 100%; height: 100%; object-fit: contain; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  :root { color-scheme: light; --fg: #000000; --muted: #404040; --bg: #ffffff; --line: #d4d4d4;
    --grid: #e5e5e5; --axis: #a3a3a3; --bar: #525252; --accent: #4338ca; --tile: #f5f5f5;
    --badge-bg: #fef3c7; --badge-fg: #78350f; --chosen-bg: #d1fae5; --chosen-fg: #064e3b; }
  body { margin: 0; font-size: 9pt; }
  h2 { break-after: avoid; }
  tr, figure, .tile { break-inside: avoid; }
  thead { display: table-header-group; }
  .charts { grid-template-columns: 1fr 1fr; }
}
`;

/** "—" for a figure without data, with a word for screen readers (as the dialog does). */
const none = () =>
  `<span aria-hidden="true">—</span><span class="sr-only">${escapeHtml(
    t({ message: 'none', comment: 'a figure of the model report with no data' }),
  )}</span>`;

function tableHtml(report: ModelReport, names: ModelNames, chosen: string | null): string {
  const threshold = formatCount(report.preliminaryBelow);
  const headers = [
    '#',
    t`Model`,
    t`Rating (95 % interval)`,
    t`Wins / losses / ties`,
    t`Credits per output`,
    t`Median run time`,
    t`p95 run time`,
    t`Failure rate`,
    t`Moderation rate`,
    t`Outputs`,
    t`Votes`,
  ];
  const criteria = reportCriteria(report);
  const rows = report.models.map((m, i) => {
    const { name, version } = modelLabel(m, names);
    const r = m.rating;
    const best = r ? formatCount(r.bestRank) : '';
    const worst = r ? formatCount(r.worstRank) : '';
    const wins = formatCount(m.wins);
    const losses = formatCount(m.losses);
    const ties = formatCount(m.ties);
    const preliminary = m.preliminary
      ? ` <span class="badge" title="${escapeHtml(t`Fewer than ${threshold} votes: the rating may move a lot.`)}">${escapeHtml(
          t({ message: 'Preliminary', comment: 'a model of the report rated on too few votes' }),
        )}</span>`
      : '';
    const decided =
      m.key === chosen
        ? ` <span class="badge chosen">${escapeHtml(
            t({ message: 'Chosen', comment: 'the model the board decided on, in the model report' }),
          )}</span>`
        : '';
    const rating = r
      ? `<strong>${escapeHtml(formatCount(Math.round(r.point)))}</strong> <span class="muted">(${escapeHtml(
          formatCount(Math.round(r.low)),
        )}–${escapeHtml(formatCount(Math.round(r.high)))})</span><span class="small">${escapeHtml(
          r.bestRank === r.worstRank
            ? t({ message: `rank ${best}`, comment: 'the model’s rank in every resample' })
            : t({
                message: `rank ${best}–${worst}`,
                comment: 'the spread of the model’s rank over the resamples: "rank 1–3"',
              }),
        )}</span>`
      : none();
    const p95 = m.runTime
      ? `${escapeHtml(formatSeconds(m.runTime.p95Ms / 1000))}<span class="small">${escapeHtml(
          plural(m.runTime.samples, { one: 'p95 of # run', other: 'p95 of # runs' }),
        )}</span>`
      : none();
    const cells = [
      rating,
      escapeHtml(t({ message: `${wins} / ${losses} / ${ties}`, comment: 'wins / losses / ties' })),
      m.creditsPerOutput === null ? none() : escapeHtml(formatCredits(m.creditsPerOutput)),
      m.runTime ? escapeHtml(formatSeconds(m.runTime.medianMs / 1000)) : none(),
      p95,
      m.failureRate === null ? none() : escapeHtml(formatPercent(m.failureRate)),
      m.moderationRate === null ? none() : escapeHtml(formatPercent(m.moderationRate)),
      escapeHtml(formatCount(m.outputs)),
      escapeHtml(formatCount(m.votes)),
      ...criteria.map((c) => {
        const avg = criterionOf(m, c);
        return avg
          ? `${escapeHtml(formatOneDecimal(avg.mean))}<span class="small">${escapeHtml(
              plural(avg.scores, { one: '# score', other: '# scores' }),
            )}</span>`
          : none();
      }),
    ];
    return (
      `<tr data-model="${escapeHtml(m.key)}"><td>${escapeHtml(formatCount(i + 1))}</td>` +
      `<th scope="row"><span class="name" dir="auto" translate="no">${escapeHtml(name)}</span> ` +
      `<span class="muted" dir="auto" translate="no">${escapeHtml(version)}</span>${decided}${preliminary}</th>` +
      cells.map((c) => `<td>${c}</td>`).join('') +
      '</tr>'
    );
  });
  const caption = plural(report.votes, {
    one: 'Models of this board, best first, from # vote',
    other: 'Models of this board, best first, from # votes',
  });
  return (
    `<table class="figures"><caption class="sr-only">${escapeHtml(caption)}</caption><thead><tr>` +
    headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('') +
    criteria
      .map(
        (c) =>
          `<th scope="col"><span dir="auto">${escapeHtml(displayText(c))}</span> <span class="muted">${escapeHtml(
            t({
              message: '(1-5)',
              comment: 'after a criterion’s name in the report table: its scores run 1 to 5',
            }),
          )}</span></th>`,
      )
      .join('') +
    `</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function noteHtml(report: ModelReport, inTeam: boolean): string {
  const threshold = formatCount(report.preliminaryBelow);
  const from = inTeam
    ? plural(report.votes, {
        one: 'From # blind vote of every member of the team on this board.',
        other: 'From # blind votes of every member of the team on this board.',
      })
    : plural(report.votes, {
        one: 'From # blind vote on this board.',
        other: 'From # blind votes on this board.',
      });
  // The dialog's explanation, word for word (one message, translated once).
  const how = t`Models are ordered by the lower end of their rating’s interval: what their votes prove, not a lucky point. Preliminary ones (fewer than ${threshold} votes) come after. On the charts, each mark is the model’s place in the table, its bar the rating’s interval; the filled marks joined by the dashed line are the front: no other model is both better and cheaper (or faster). p95: 95 % of the runs took at most this long; under 20 runs, it is the slowest run.`;
  return `<p class="note">${escapeHtml(from)} ${escapeHtml(how)}</p>`;
}

function chartsHtml(report: ModelReport, names: ModelNames): string {
  const figures = CHART_KINDS.map((kind) => {
    const models = chartModelsOf(report, names, kind);
    const words = chartWordsOf(kind, models);
    const layout = chartLayout(models);
    const body = layout
      ? chartSvg(layout, words)
      : `<p class="note">${escapeHtml(t`No model has both a rating and this figure yet.`)}</p>`;
    return `<figure><figcaption>${escapeHtml(words.title)}</figcaption>${body}</figure>`;
  });
  return `<div class="charts">${figures.join('')}</div>`;
}

/** Only a picture made into a data: URL goes in the page: anything else would load from a network. */
const isDataPicture = (url: string | null): url is string =>
  url !== null && /^data:image\/(?:jpeg|png|webp|gif);base64,[A-Za-z0-9+/=]*$/.test(url);

function gridHtml(grid: ReportGrid): string {
  const head =
    `<th scope="col">${escapeHtml(t`Prompt`)}</th>` +
    grid.columns
      .map(
        (c) =>
          `<th scope="col"><span class="name" dir="auto" translate="no">${escapeHtml(displayText(c.name))}</span> ` +
          `<span class="muted" dir="auto" translate="no">${escapeHtml(displayText(c.version))}</span></th>`,
      )
      .join('');
  const rows = grid.rows.map((row, r) => {
    const prompt = displayText(row.prompt);
    const place = formatCount(r + 1);
    const cells = row.cells.map((cell, c) => {
      const column = grid.columns[c];
      const model = column ? displayText(`${column.name} ${column.version}`) : '';
      const alt = t`Output of ${model} for prompt ${place}`;
      const picture = isDataPicture(cell.picture)
        ? `<img src="${escapeHtml(cell.picture)}" alt="${escapeHtml(alt)}">`
        : `<span>${escapeHtml(cell.note)}</span>`;
      const caption =
        isDataPicture(cell.picture) && cell.note ? `<span class="small">${escapeHtml(cell.note)}</span>` : '';
      const reviews = cell.reviews?.length
        ? `<ul class="reviews">${cell.reviews
            .map(
              (r) =>
                `<li><span dir="auto">${escapeHtml(displayText(r.byline))}</span>` +
                (r.note ? ` <span class="muted" dir="auto">${escapeHtml(displayText(r.note))}</span>` : '') +
                '</li>',
            )
            .join('')}</ul>`
        : '';
      return `<td><div class="tile">${picture}</div>${caption}${reviews}</td>`;
    });
    return (
      `<tr><th scope="row" dir="auto" translate="no">${escapeHtml(prompt || t`(no prompt)`)}</th>` +
      `${cells.join('')}</tr>`
    );
  });
  return `<table class="outputs"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The whole page, in the user's language now. */
/** The decision in force: the model chosen, by whom and when, and why (all text escaped). */
function decisionHtml(d: ReportDecision): string {
  const name = displayText(d.name);
  const by = displayText(d.by);
  const when = formatDate(new Date(d.at), { dateStyle: 'long', timeStyle: 'short' });
  return [
    '<section class="decision">',
    `<h2>${escapeHtml(t`Decision`)}</h2>`,
    `<p dir="auto"><strong>${escapeHtml(t`Chosen model: ${name}`)}</strong> <span class="muted">${escapeHtml(t`by ${by}, ${when}`)}</span></p>`,
    d.reason ? `<p dir="auto" class="reason">${escapeHtml(displayText(d.reason))}</p>` : '',
    '</section>',
  ].join('');
}

export function reportHtml(doc: ReportDocument): string {
  const language = i18n.locale;
  const dir = isLanguage(language) ? directionOf(language) : 'ltr';
  const boardName = displayText(doc.boardName);
  const title = t`Model report`;
  const date = formatDate(doc.createdAt, { dateStyle: 'long', timeStyle: 'short' });
  const empty = doc.report.models.length === 0;
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(language)}" dir="${dir}">`,
    '<head>',
    '<meta charset="utf-8">',
    // First in <head>: a policy applies only to what comes after it.
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(boardName ? `${boardName} · ${title}` : title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1 dir="auto">${escapeHtml(boardName || title)}</h1>`,
    `<p class="muted">${escapeHtml(t`Model report, ${date}`)}</p>`,
    '</header>',
    doc.decision ? decisionHtml(doc.decision) : '',
    '<main>',
    `<h2>${escapeHtml(t`Models`)}</h2>`,
    empty
      ? `<p class="note">${escapeHtml(t`Add models and prompts, run the board, then vote blind: the report builds on those.`)}</p>`
      : tableHtml(doc.report, doc.names, doc.decision?.column ?? null) + noteHtml(doc.report, doc.inTeam),
    empty ? '' : chartsHtml(doc.report, doc.names),
    doc.grid ? `<h2>${escapeHtml(t`Prompts and outputs`)}</h2>` : '',
    doc.grid ? gridHtml(doc.grid) : '',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
