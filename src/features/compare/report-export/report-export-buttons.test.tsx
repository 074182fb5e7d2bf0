import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cellKey, type Cell } from '../../../model/compare/boards';
import type { ReportBoard } from '../../../model/compare/model-report';
import type { Vote } from '../../../model/compare/votes';
import type { HistoryEntry } from '../../../model/history/history-types';
import { ModelReportDialog } from '../model-report-view';
import type { ModelNames } from './report-content';
import type * as ReportImages from './report-images';

// Export report from the Model report dialog: the HTML page and the CSV saved from the buttons, the page's
// table the very one the dialog shows, the key the studio keeps for this connection nowhere in either
// file, and no button for a member still blind on the board. The pictures are made by a stand-in (this
// test's page draws no canvas); report-images.test.ts checks the loading.

const saved = vi.hoisted(() => ({
  blobs: [] as Array<{ blob: Blob; name: string }>,
  csv: [] as Array<{ csv: string; name: string }>,
}));
vi.mock('../../../lib/save-file', () => ({
  saveBlob: (blob: Blob, name: string) => saved.blobs.push({ blob, name }),
  saveCsv: (csv: string, name: string) => saved.csv.push({ csv, name }),
}));
vi.mock('./report-images', async (importOriginal) => {
  const real = await importOriginal<typeof ReportImages>();
  return {
    ...real,
    loadGrid: (sources: Parameters<typeof real.loadGrid>[0]) =>
      real.loadGrid(sources, async (url) => `data:image/jpeg;base64,${btoa(url)}`),
  };
});

const KEY = 'sk-live-7f3a9c2e5b8d41f6a0c3e9b2d7f4a1c8';
const A = 'alpha@a1';
const B = 'beta@b1';
const NAMES: Record<string, { name: string; versionName: string }> = {
  [A]: { name: 'Alpha', versionName: 'A1' },
  [B]: { name: 'Beta', versionName: 'B1' },
};
const names: ModelNames = (key) => NAMES[key];

let seq = 0;
const run = (model: string, seconds: number, credits: number): HistoryEntry => {
  seq++;
  const [modelId, versionId] = model.split('@') as [string, string];
  return {
    taskId: `t${seq}`,
    connectionId: 'conn',
    request: { interfaceId: modelId, versionId, params: { prompt: 'p' } },
    meta: {
      title: modelId,
      subtitle: '',
      kind: 'model',
      mediaType: 'image',
      modelId,
      versionId,
      estimatedSeconds: null,
      quotedCredits: null,
    },
    status: 'succeeded',
    outputs: [{ url: `https://cdn.example/t${seq}.png` }],
    error: null,
    creditsCharged: credits,
    createdAt: 1_000_000,
    completedAt: 1_000_000 + seconds * 1000,
    idempotencyKey: `k${seq}`,
    unseen: false,
  };
};

const ROWS = ['r1', 'r2'];
const TASKS = ROWS.flatMap((row, i) => [run(A, 10 + i, 4), run(B, 5 + i, 2)]);
const CELLS: Record<string, Cell> = Object.fromEntries(
  TASKS.map((task) => [
    cellKey(
      ROWS[Math.floor((Number(task.taskId.slice(1)) - 1) / 2)]!,
      `${task.meta.modelId}@${task.meta.versionId}`,
    ),
    { idempotencyKey: task.idempotencyKey!, taskId: task.taskId, request: '{}', runAt: 0 },
  ]),
);
const BOARD: ReportBoard & { name: string } = {
  id: 'board-1',
  name: 'Lighthouses <b>round 2</b>',
  setup: {
    category: 'image/default',
    columns: [
      { modelId: 'alpha', versionId: 'a1' },
      { modelId: 'beta', versionId: 'b1' },
    ],
    rows: ROWS.map((id) => ({ id, prompt: `a lighthouse ${id} </style><script>alert(1)</script>` })),
    shared: {},
    perColumn: {},
  },
  cells: CELLS,
};
const VOTES: Vote[] = ROWS.map((rowId, i) => ({
  connectionId: 'conn',
  id: `board-1|${rowId}`,
  boardId: 'board-1',
  rowId,
  category: 'image/default',
  candidates: [A, B].map((key) => ({
    key,
    modelId: key.split('@')[0]!,
    versionId: key.split('@')[1]!,
    name: NAMES[key]!.name,
    versionName: NAMES[key]!.versionName,
  })),
  winner: i === 0 ? A : null,
  at: i,
}));

const renderReport = (blind = false) =>
  render(
    <ModelReportDialog
      open
      onOpenChange={() => undefined}
      board={BOARD}
      tasks={TASKS}
      votes={VOTES}
      names={names}
      blind={blind}
      inTeam={false}
    />,
  );

/** A table's rows, each as its cells' text. */
const rowsOf = (table: Element) =>
  [...table.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()),
  );

beforeEach(() => {
  saved.blobs.length = 0;
  saved.csv.length = 0;
  localStorage.clear();
  sessionStorage.clear();
  // The key this studio keeps, remembered on this device, where the connect screen stores it
  // (features/connect/credentials-store.ts, which another feature may not import).
  localStorage.setItem('media-studio:base-url', 'https://api.example');
  localStorage.setItem('media-studio:api-key', KEY);
});
afterEach(cleanup);

describe('Export report', () => {
  it('saves the dialog’s table, both charts and every cell’s picture as one HTML page, and never the key', async () => {
    const user = userEvent.setup();
    renderReport();
    const dialog = screen.getByRole('dialog', { name: 'Model report' });
    await user.click(within(dialog).getByRole('button', { name: 'Export report (HTML page with images)' }));
    await waitFor(() => expect(saved.blobs).toHaveLength(1));
    const { blob, name } = saved.blobs[0]!;
    expect(name).toBe('Lighthouses bround 2b-report.html');
    expect(blob.type).toBe('text/html;charset=utf-8');
    const html = await blob.text();
    expect(localStorage.getItem('media-studio:api-key')).toBe(KEY);
    expect(html).not.toContain(KEY);
    expect(html).not.toContain(KEY.slice(0, 12));
    expect(html.toLowerCase()).not.toContain('<script');
    expect(html).not.toContain('https://cdn.example');

    const page = new DOMParser().parseFromString(html, 'text/html');
    expect(page.querySelector('h1')?.textContent).toBe(BOARD.name);
    // The page's table is the dialog's, row for row and figure for figure.
    expect(rowsOf(page.querySelector('table.figures')!)).toEqual(rowsOf(within(dialog).getByRole('table')));
    expect(rowsOf(page.querySelector('table.figures')!)).toHaveLength(2);
    // Its charts are the dialog's: the same marks at the same places, the same front.
    const marks = (root: ParentNode) =>
      [...root.querySelectorAll('svg g[data-model]')].map((g) => {
        const c = g.querySelector('circle')!;
        return {
          model: g.getAttribute('data-model'),
          front: g.getAttribute('data-front'),
          cx: Number(c.getAttribute('cx')),
          cy: Number(c.getAttribute('cy')),
        };
      });
    const inPage = marks(page);
    const inDialog = marks(dialog);
    expect(inPage).toHaveLength(4);
    expect(inPage.map((m) => [m.model, m.front])).toEqual(inDialog.map((m) => [m.model, m.front]));
    inPage.forEach((m, i) => {
      // The page writes two decimals: the dialog's place to a hundredth of a pixel.
      expect(Math.abs(m.cx - inDialog[i]!.cx)).toBeLessThan(0.01);
      expect(Math.abs(m.cy - inDialog[i]!.cy)).toBeLessThan(0.01);
    });
    // Every cell's picture, inside the file.
    const pictures = [...page.querySelectorAll('table.outputs img')].map((img) => img.getAttribute('src'));
    expect(pictures).toHaveLength(4);
    expect(pictures.every((src) => src!.startsWith('data:image/jpeg;base64,'))).toBe(true);
  });

  it('saves the figures as CSV, and never the key', async () => {
    const user = userEvent.setup();
    renderReport();
    await user.click(screen.getByRole('button', { name: 'Export report figures (CSV)' }));
    expect(saved.csv).toHaveLength(1);
    const { csv, name } = saved.csv[0]!;
    expect(name).toBe('Lighthouses bround 2b-report.csv');
    expect(csv).not.toContain(KEY);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^1,Alpha,A1,alpha,a1,/);
    expect(lines[2]).toMatch(/^2,Beta,B1,beta,b1,/);
  });

  it('offers nothing to a member still blind on the board', () => {
    renderReport(true);
    expect(screen.queryByRole('button', { name: /Export report/ })).toBeNull();
  });
});
