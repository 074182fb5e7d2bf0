import { describe, expect, it } from 'vitest';
import type { ModelFigures, ModelReport } from '../../../model/compare/model-report';
import type { ModelNames } from './report-content';
import { escapeHtml } from './escape-html';
import { CHART_H, CHART_W, chartLayout } from './front-chart';
import { chartModelsOf } from './report-content';
import { reportCsv, reportFileName } from './report-csv';
import { REPORT_CSP, reportHtml, type ReportDocument, type ReportGrid } from './report-html';

// The exported report's two files, built from a hand-made report (the figures modelReport would give,
// written out): every model and figure present, someone's text inert everywhere, no script, the policy
// that forbids one, light, dark and print styles; the CSV's columns, values and formula guard.

const HOSTILE = '</style><script>alert(1)</script><img src=x onerror=alert(1)>';

const model = (over: Partial<ModelFigures> & Pick<ModelFigures, 'key'>): ModelFigures => {
  const [modelId, versionId] = over.key.split('@') as [string, string];
  return {
    modelId,
    versionId,
    name: null,
    versionName: null,
    rating: null,
    preliminary: true,
    wins: 0,
    losses: 0,
    ties: 0,
    votes: 0,
    runs: { succeeded: 0, failed: 0, moderated: 0, cancelled: 0, unfinished: 0 },
    outputs: 0,
    creditsPerOutput: null,
    runTime: null,
    failureRate: null,
    moderationRate: null,
    criteria: [],
    front: { credits: null, time: null },
    ...over,
  };
};

// Alpha: best, on both fronts. Beta: cheapest and fastest, on both fronts; its name is markup. Gamma:
// preliminary, dominated; its name starts like a spreadsheet formula. Delta: never voted on nor run.
const REPORT: ModelReport = {
  votes: 14,
  preliminaryBelow: 10,
  models: [
    model({
      key: 'alpha@a1',
      rating: { point: 1540.4, low: 1510.2, high: 1580.7, bestRank: 1, worstRank: 1 },
      preliminary: false,
      wins: 10,
      losses: 4,
      votes: 14,
      outputs: 3,
      creditsPerOutput: 4,
      runTime: { medianMs: 20_000, p95Ms: 30_000, samples: 3 },
      failureRate: 0,
      moderationRate: 0,
      front: { credits: true, time: true },
    }),
    model({
      key: 'beta@b1',
      rating: { point: 1470.6, low: 1430.1, high: 1500.2, bestRank: 2, worstRank: 3 },
      preliminary: false,
      wins: 4,
      losses: 8,
      votes: 12,
      outputs: 2,
      creditsPerOutput: 2,
      runTime: { medianMs: 6_000, p95Ms: 7_000, samples: 2 },
      failureRate: 1 / 3,
      moderationRate: 0,
      front: { credits: true, time: true },
    }),
    model({
      key: 'gamma@g1',
      rating: { point: 1489, low: 1400, high: 1560, bestRank: 1, worstRank: 3 },
      losses: 2,
      ties: 1,
      votes: 3,
      outputs: 2,
      creditsPerOutput: 10.5,
      runTime: { medianMs: 40_000, p95Ms: 40_000, samples: 2 },
      failureRate: 0,
      moderationRate: 1 / 3,
      front: { credits: false, time: false },
    }),
    model({ key: 'delta@d1' }),
  ],
};

const NAMES: Record<string, { name: string; versionName: string }> = {
  'alpha@a1': { name: 'Alpha', versionName: 'A1' },
  'beta@b1': { name: HOSTILE, versionName: 'B"1' },
  'gamma@g1': { name: '=HYPERLINK("http://evil.example")', versionName: '@G1' },
  'delta@d1': { name: 'Delta', versionName: 'D1' },
};
const names: ModelNames = (key) => NAMES[key];

// A tiny JPEG's data: URL (its bytes do not matter here, only that it is one).
const PICTURE = `data:image/jpeg;base64,${'A'.repeat(4000)}`;
const GRID: ReportGrid = {
  columns: Object.entries(NAMES).map(([key, n]) => ({ key, name: n.name, version: n.versionName })),
  rows: [
    {
      prompt: HOSTILE,
      cells: [
        { picture: PICTURE, note: '' },
        { picture: 'https://cdn.example/leak.png', note: '' },
        { picture: null, note: 'failed' },
        { picture: null, note: 'not run' },
      ],
    },
    {
      prompt: 'a "quoted" lighthouse & harbour',
      cells: [
        { picture: PICTURE, note: '' },
        { picture: PICTURE, note: '' },
        { picture: 'data:text/html;base64,PHNjcmlwdD4=', note: '' },
        { picture: null, note: '♪ audio' },
      ],
    },
  ],
};

const DOC: ReportDocument = {
  boardName: `Board ${HOSTILE}`,
  createdAt: new Date(Date.UTC(2026, 10, 29, 9, 30)),
  report: REPORT,
  names,
  inTeam: true,
  grid: GRID,
};

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('escapeHtml', () => {
  it('escapes the five characters that end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('reportHtml', () => {
  const html = reportHtml(DOC);
  const doc = parse(html);

  it('shows the decision in force (model, who, when, why, as text) and marks its model; none without one', () => {
    const decided = parse(
      reportHtml({
        ...DOC,
        decision: {
          name: 'Beta · B1',
          column: 'beta@b1',
          reason: HOSTILE,
          by: HOSTILE,
          at: Date.UTC(2026, 10, 2),
        },
      }),
    );
    const section = decided.querySelector('section.decision')!;
    expect(section.textContent).toContain('Chosen model: Beta · B1');
    expect(section.textContent).toContain(HOSTILE);
    expect(section.querySelector('img')).toBeNull();
    expect(decided.querySelector('tr[data-model="beta@b1"] .badge.chosen')?.textContent).toBe('Chosen');
    expect(decided.querySelectorAll('.badge.chosen')).toHaveLength(1);
    expect(doc.querySelector('section.decision')).toBeNull();
    expect(doc.querySelector('.badge.chosen')).toBeNull();
  });

  it('has no script, and a policy that allows none and no network, first in <head>', () => {
    expect(html.toLowerCase()).not.toContain('<script');
    // No element has an event handler attribute (the hostile text's "onerror=" is text, escaped).
    const attributes = [...doc.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name));
    expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
    expect(html).not.toMatch(/(?:src|href)="(?!data:image\/)/i);
    const meta = doc.head.querySelector('meta[http-equiv="Content-Security-Policy"]');
    expect(meta?.getAttribute('content')).toBe(REPORT_CSP);
    expect(REPORT_CSP).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'");
    // Only the charset comes before it: a policy applies to what follows it.
    expect(doc.head.firstElementChild?.getAttribute('charset')).toBe('utf-8');
    expect(meta?.previousElementSibling).toBe(doc.head.firstElementChild);
  });

  it('keeps a hostile prompt, board name and model name as text, in content and attributes', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(escapeHtml(HOSTILE));
    // The parsed page holds them as text: no element came out of them.
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(
      [...doc.querySelectorAll('img')].every((img) => img.getAttribute('src')!.startsWith('data:image/')),
    );
    expect(doc.querySelectorAll('style')).toHaveLength(1);
    expect(text(doc.querySelector('h1'))).toBe(`Board ${HOSTILE}`);
    expect(text(doc.querySelector('.outputs tbody th'))).toBe(HOSTILE);
    expect(text(doc.querySelector('tr[data-model="beta@b1"] th .name'))).toBe(HOSTILE);
    // In attributes too: an image's alt text and the charts' labels name the model.
    const alts = [...doc.querySelectorAll('.outputs img')].map((img) => img.getAttribute('alt'));
    expect(alts).toContain(`Output of ${HOSTILE} B"1 for prompt 2`);
    const chart = doc.querySelector('svg[aria-label^="Quality against credits per output"]');
    expect(chart?.getAttribute('aria-label')).toContain(HOSTILE);
    expect(doc.title).toBe(`Board ${HOSTILE} · Model report`);
  });

  it('shows each picture’s reviews under it, names and notes as text', () => {
    const reviewed = parse(
      reportHtml({
        ...DOC,
        grid: {
          ...GRID,
          rows: [
            {
              ...GRID.rows[0]!,
              cells: [
                {
                  ...GRID.rows[0]!.cells[0]!,
                  reviews: [
                    { byline: `Approved by ${HOSTILE}`, note: HOSTILE },
                    { byline: 'Rejected by Ben', note: '' },
                  ],
                },
                ...GRID.rows[0]!.cells.slice(1),
              ],
            },
            GRID.rows[1]!,
          ],
        },
      }),
    );
    const items = [...reviewed.querySelectorAll('.outputs td:first-of-type .reviews li')].map(text);
    expect(items).toEqual([`Approved by ${HOSTILE} ${HOSTILE}`, 'Rejected by Ben']);
    expect(reviewed.querySelectorAll('.reviews')).toHaveLength(1);
    expect(reviewed.querySelectorAll('script')).toHaveLength(0);
  });

  it('shows the criteria’s averages per model, a criterion’s name as text', () => {
    const scored = parse(
      reportHtml({
        ...DOC,
        report: {
          ...REPORT,
          models: REPORT.models.map((m, i) =>
            i === 0 ? { ...m, criteria: [{ criterion: HOSTILE, mean: 4.25, scores: 4 }] } : m,
          ),
        },
      }),
    );
    const headers = [...scored.querySelectorAll('table.figures thead th')].map(text);
    expect(headers.at(-1)).toBe(`${HOSTILE} (1-5)`);
    const alpha = [...scored.querySelectorAll('tr[data-model="alpha@a1"] td')].map(text);
    // The average, then (a block of its own) how many scores it rests on.
    expect(alpha.at(-1)).toBe('4.34 scores');
    const beta = [...scored.querySelectorAll('tr[data-model="beta@b1"] td')].map(text);
    expect(beta.at(-1)).toBe('—none');
    expect(scored.querySelectorAll('script')).toHaveLength(0);
  });

  it('shows every model with every figure the dialog shows', () => {
    const headers = [...doc.querySelectorAll('table.figures thead th')].map(text);
    expect(headers).toEqual([
      '#',
      'Model',
      'Rating (95 % interval)',
      'Wins / losses / ties',
      'Credits per output',
      'Median run time',
      'p95 run time',
      'Failure rate',
      'Moderation rate',
      'Outputs',
      'Votes',
    ]);
    const rows = [...doc.querySelectorAll('table.figures tbody tr')].map((tr) =>
      [...tr.querySelectorAll('th, td')].map(text),
    );
    expect(rows).toEqual([
      [
        '1',
        'Alpha A1',
        '1,540 (1,510–1,581)rank 1',
        '10 / 4 / 0',
        '4 credits',
        '20 s',
        '30 sp95 of 3 runs',
        '0%',
        '0%',
        '3',
        '14',
      ],
      [
        '2',
        `${HOSTILE} B"1`,
        '1,471 (1,430–1,500)rank 2–3',
        '4 / 8 / 0',
        '2 credits',
        '6 s',
        '7 sp95 of 2 runs',
        '33%',
        '0%',
        '2',
        '12',
      ],
      [
        '3',
        '=HYPERLINK("http://evil.example") @G1 Preliminary',
        '1,489 (1,400–1,560)rank 1–3',
        '0 / 2 / 1',
        '10.5 credits',
        '40 s',
        '40 sp95 of 2 runs',
        '0%',
        '33%',
        '2',
        '3',
      ],
      [
        '4',
        'Delta D1 Preliminary',
        '—none',
        '0 / 0 / 0',
        '—none',
        '—none',
        '—none',
        '—none',
        '—none',
        '0',
        '0',
      ],
    ]);
    expect(doc.querySelector('.badge')?.getAttribute('title')).toBe(
      'Fewer than 10 votes: the rating may move a lot.',
    );
    expect(text(doc.querySelector('.note'))).toMatch(/^From 14 blind votes of every member of the team/);
  });

  it('draws both charts inline with the dialog’s layout, the front marked', () => {
    const charts = [...doc.querySelectorAll('svg.chart')];
    expect(charts.map((c) => c.getAttribute('aria-label'))).toEqual([
      `Quality against credits per output. On the front (no other model is both better and cheaper or faster): ${HOSTILE} B"1, Alpha A1.`,
      `Quality against median run time. On the front (no other model is both better and cheaper or faster): ${HOSTILE} B"1, Alpha A1.`,
    ]);
    for (const chart of charts) {
      expect(chart.getAttribute('viewBox')).toBe(`0 0 ${CHART_W} ${CHART_H}`);
      const front = [...chart.querySelectorAll('[data-front="true"]')].map((g) =>
        g.getAttribute('data-model'),
      );
      expect(front.sort()).toEqual(['alpha@a1', 'beta@b1']);
      expect(chart.querySelector('[data-model="gamma@g1"]')?.getAttribute('data-front')).toBe('false');
      // Delta has no rating: it is on neither chart.
      expect(chart.querySelector('[data-model="delta@d1"]')).toBeNull();
      expect(chart.querySelector('.front-line')?.getAttribute('points')?.split(' ')).toHaveLength(2);
    }
    // The marks sit where the dialog's layout puts them.
    const layout = chartLayout(chartModelsOf(REPORT, names, 'credits'))!;
    const alpha = layout.marks.find((m) => m.model.key === 'alpha@a1')!;
    const circle = charts[0]!.querySelector('[data-model="alpha@a1"] circle')!;
    expect(Number(circle.getAttribute('cx'))).toBeCloseTo(alpha.x, 1);
    expect(Number(circle.getAttribute('cy'))).toBeCloseTo(alpha.y, 1);
  });

  it('puts each cell’s picture in the grid, and words where there is none or it is not a data: URL', () => {
    const heads = [...doc.querySelectorAll('.outputs thead th')].map(text);
    expect(heads).toEqual([
      'Prompt',
      'Alpha A1',
      `${HOSTILE} B"1`,
      '=HYPERLINK("http://evil.example") @G1',
      'Delta D1',
    ]);
    const rows = [...doc.querySelectorAll('.outputs tbody tr')];
    expect(rows).toHaveLength(2);
    expect(rows[0]!.querySelectorAll('img')).toHaveLength(1);
    expect(rows[1]!.querySelectorAll('img')).toHaveLength(2);
    expect([...rows[0]!.querySelectorAll('td')].map(text)).toEqual(['', '', 'failed', 'not run']);
    expect(text(rows[1]!.querySelectorAll('td')[3])).toBe('♪ audio');
    expect(html).not.toContain('cdn.example');
    expect(html).not.toContain('data:text/html');
    expect(text(rows[1]!.querySelector('th'))).toBe('a "quoted" lighthouse & harbour');
  });

  it('follows the reader’s light or dark scheme and prints on A4 without cutting a row', () => {
    const style = doc.querySelector('style')!.textContent;
    expect(style).toContain('@media (prefers-color-scheme: dark)');
    expect(style).toContain('color-scheme: light dark');
    expect(style).toMatch(/@page \{ size: A4; margin: [^}]+\}/);
    expect(style).toMatch(/@media print \{[\s\S]*tr, figure, \.tile \{ break-inside: avoid; \}/);
    expect(doc.documentElement.getAttribute('lang')).toBe('en');
    expect(doc.documentElement.getAttribute('dir')).toBe('ltr');
  });

  it('grows by the pictures it holds and little else', () => {
    const pictures = html.match(/data:image\/jpeg;base64,A+/g)!.join('').length;
    expect(pictures).toBe(3 * PICTURE.length);
    // The page itself (styles, table, two charts, the grid's markup) stays small.
    expect(html.length - pictures).toBeLessThan(40_000);
    expect(reportHtml({ ...DOC, grid: { columns: [], rows: [] } }).length).toBeLessThan(30_000);
  });

  it('says how to get figures when the board has none', () => {
    const empty = parse(reportHtml({ ...DOC, report: { ...REPORT, models: [] } }));
    expect(empty.querySelector('table.figures')).toBeNull();
    expect(empty.querySelector('svg')).toBeNull();
    expect(text(empty.querySelector('.note'))).toMatch(/^Add models and prompts/);
  });
});

describe('reportCsv', () => {
  const lines = reportCsv(REPORT, names, 'beta@b1').trimEnd().split('\r\n');

  it('has one row per model, in the report’s order, with the table’s figures', () => {
    expect(lines[0]).toBe(
      'place,model,version,model_id,version_id,rating,rating_ci95_low,rating_ci95_high,rank_best,rank_worst,preliminary,chosen,wins,losses,ties,credits_per_output,median_run_time_s,p95_run_time_s,p95_runs,failure_rate,moderation_rate,outputs,votes',
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe('1,Alpha,A1,alpha,a1,1540,1510,1581,1,1,false,false,10,4,0,4,20,30,3,0,0,3,14');
    expect(lines[4]).toBe('4,Delta,D1,delta,d1,,,,,,true,false,0,0,0,,,,,,,0,0');
  });

  it('writes a name that starts like a formula as text, and quotes what needs it', () => {
    expect(lines[3]).toBe(
      `3,"'=HYPERLINK(""http://evil.example"")",'@G1,gamma,g1,1489,1400,1560,1,3,true,false,0,2,1,10.5,40,40,2,0,0.3333,2,3`,
    );
    // CSV is not HTML: markup is only text there, quoted only for a quote mark or a comma.
    expect(lines[2]).toContain(`,${HOSTILE},"B""1",beta,b1,`);
    expect(lines[2]).toContain(',0.3333,0,2,12');
  });

  it('marks the model of the board’s decision in force as chosen, and only it', () => {
    const at = lines[0]!.split(',').indexOf('chosen');
    // Beta's row (the second) is the chosen one; no field before the column holds a comma.
    expect(lines.slice(1).map((l) => l.split(',')[at])).toEqual(['false', 'true', 'false', 'false']);
    const undecided = reportCsv(REPORT, names).trimEnd().split('\r\n').slice(1);
    expect(undecided.map((l) => l.split(',')[at])).toEqual(['false', 'false', 'false', 'false']);
  });

  it('adds a column per criterion with its average, empty where a model was not scored on it; a formula-like name cannot start a cell', () => {
    const scored: ModelReport = {
      ...REPORT,
      models: REPORT.models.map((m, i) =>
        i === 0
          ? {
              ...m,
              criteria: [
                { criterion: 'Look', mean: 13 / 3, scores: 3 },
                { criterion: '=SUM(A1)', mean: 2, scores: 1 },
              ],
            }
          : i === 1
            ? { ...m, criteria: [{ criterion: 'Look', mean: 2.5, scores: 2 }] }
            : m,
      ),
    };
    const rows = reportCsv(scored, names).trimEnd().split('\r\n');
    // The header names the criterion after a word of ours, so no name can start a formula there.
    expect(rows[0]).toMatch(/,votes,criterion: Look,criterion: =SUM\(A1\)$/);
    expect(rows[1]).toMatch(/,14,4\.333,2$/);
    expect(rows[2]).toMatch(/,12,2\.5,$/);
    expect(rows[4]).toMatch(/,0,,$/);
  });

  it('names the files after the board', () => {
    expect(reportFileName('Lighthouses: round 2', 'board', 'html')).toBe('Lighthouses round 2-report.html');
    expect(reportFileName('<>/\\', 'board', 'csv')).toBe('board-report.csv');
  });
});
