import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { Board } from '../../src/model/compare/boards';
import type { ModelReportInput } from '../../src/model/compare/model-report';
import { modelReport } from '../../src/model/compare/model-report';
import type { Vote } from '../../src/model/compare/votes';
import type { HistoryEntry } from '../../src/model/history/history-types';
import { ModelReportDialog } from '../../src/features/compare/model-report-view';
import type { ModelNames } from '../../src/features/compare/report-export/report-content';
import { reportHtml } from '../../src/features/compare/report-export/report-html';
import { gridSources, loadGrid } from '../../src/features/compare/report-export/report-images';

// A page of its own for bench/report-bench.ts, built by Vite from the studio's real modules: the Model
// report dialog (React, the figures, the charts) over a category's boards, and the exported HTML of one
// board with its pictures. The fixture is made here, seeded, so every run measures the same input.

const MODELS = 8;
const PROMPTS = 20;
const keyOf = (m: number) => `model-${m}@v${m}`;
const names: ModelNames = (key) => ({ name: `Model ${key.split('@')[0]!.slice(6)}`, versionName: 'v1' });

/** mulberry32: the same fixture every run. */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

function boardOf(b: number, taskOf: (row: string, model: number) => string): Board {
  const rows = Array.from({ length: PROMPTS }, (_, r) => ({
    id: `b${b}r${r}`,
    prompt: `prompt ${r} of board ${b}`,
  }));
  const cells: Board['cells'] = {};
  for (const row of rows)
    for (let m = 0; m < MODELS; m++)
      cells[`${row.id}|${keyOf(m)}`] = {
        idempotencyKey: `k-${row.id}-${m}`,
        taskId: taskOf(row.id, m),
        request: '{}',
        runAt: 0,
      };
  return {
    id: `board-${b}`,
    connectionId: 'bench',
    name: `Board ${b}`,
    createdAt: 0,
    updatedAt: 0,
    setup: {
      category: 'image/default',
      columns: Array.from({ length: MODELS }, (_, m) => ({ modelId: `model-${m}`, versionId: `v${m}` })),
      rows,
      shared: {},
      perColumn: {},
    },
    cells,
    favourites: {},
    notes: {},
    blind: false,
    decisions: [],
    criteria: [],
    scores: {},
  };
}

function entry(taskId: string, m: number, rnd: () => number, url?: string): HistoryEntry {
  const failed = rnd() < 0.05;
  const createdAt = 1_700_000_000_000 + Math.floor(rnd() * 1e9);
  return {
    taskId,
    connectionId: 'bench',
    request: { interfaceId: `model-${m}`, versionId: `v${m}`, params: { prompt: 'p' } },
    meta: {
      title: `Model ${m}`,
      subtitle: 'v1',
      kind: 'model',
      mediaType: 'image',
      modelId: `model-${m}`,
      estimatedSeconds: null,
      quotedCredits: null,
    },
    status: failed ? 'failed' : 'succeeded',
    outputs: failed ? [] : [{ url: url ?? `https://cdn.example/${taskId}.png` }],
    error: failed ? { message: 'failed', code: 'generation_failed' } : null,
    creditsCharged: failed ? 0 : 2 + m,
    createdAt,
    completedAt: createdAt + 2_000 + Math.floor(rnd() * 20_000) * (1 + m / 4),
    idempotencyKey: `k-${taskId}`,
    unseen: false,
  } as HistoryEntry;
}

/** `boards` boards of 8 models x 20 prompts, a task per cell, and every member's blind vote on every row. */
function categoryFixture(boardCount: number, members: number): ModelReportInput {
  const rnd = random(42);
  const tasks: HistoryEntry[] = [];
  const boards = Array.from({ length: boardCount }, (_, b) =>
    boardOf(b, (row, m) => {
      const id = `t-${row}-${m}`;
      tasks.push(entry(id, m, rnd));
      return id;
    }),
  );
  // Each model has a true strength; a member picks the row's best by it, with noise.
  const strength = Array.from({ length: MODELS }, (_, m) => m * 0.3);
  const votes: Vote[] = [];
  for (const board of boards)
    for (const row of board.setup.rows)
      for (let member = 0; member < members; member++) {
        let best = 0;
        let bestScore = -Infinity;
        for (let m = 0; m < MODELS; m++) {
          const score = strength[m]! + rnd() * 2;
          if (score > bestScore) [best, bestScore] = [m, score];
        }
        votes.push({
          connectionId: `member-${member}`,
          id: `${board.id}|${row.id}`,
          boardId: board.id,
          rowId: row.id,
          category: 'image/default',
          candidates: Array.from({ length: MODELS }, (_, m) => ({
            key: keyOf(m),
            modelId: `model-${m}`,
            versionId: `v${m}`,
            name: `Model ${m}`,
            versionName: 'v1',
          })),
          winner: rnd() < 0.05 ? null : keyOf(best),
          at: votes.length,
        });
      }
  return { boards, tasks, votes };
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

interface RenderResult {
  ms: number;
  boards: number;
  votes: number;
  tasks: number;
  rows: number;
}

declare global {
  interface Window {
    reportBench: {
      render: (boards: number, members: number) => Promise<RenderResult>;
      compute: (boards: number, members: number) => number;
      exportBytes: (urls: string[]) => Promise<{ bytes: number; pictures: number; ms: number }>;
    };
  }
}

window.reportBench = {
  /**
   * Opens the dialog on one board, then times the switch to every board of the category: from the click
   * to the frame after the table holds every model (the figures computed, the table and charts drawn).
   */
  async render(boardCount, members) {
    const input = categoryFixture(boardCount, members);
    const host = document.getElementById('root')!;
    const root = createRoot(host);
    flushSync(() =>
      root.render(
        createElement(
          I18nProvider,
          { i18n },
          createElement(ModelReportDialog, {
            open: true,
            onOpenChange: () => undefined,
            board: input.boards[0]!,
            tasks: [],
            votes: [],
            names,
            blind: false,
            inTeam: true,
            loadCategory: async () => input,
          }),
        ),
      ),
    );
    await nextFrame();
    const radio = [...document.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
      (r) => r.value === 'category',
    );
    if (!radio) throw new Error('No category choice in the dialog.');
    const done = new Promise<void>((resolve) => {
      const check = () => {
        const rows = document.querySelectorAll('[role="dialog"] table tbody tr').length;
        if (rows === MODELS && document.body.textContent?.includes(`${boardCount} boards`)) {
          observer.disconnect();
          resolve();
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    const started = performance.now();
    radio.click();
    await done;
    await nextFrame();
    const ms = performance.now() - started;
    const rows = document.querySelectorAll('[role="dialog"] table tbody tr').length;
    root.unmount();
    return { ms, boards: input.boards.length, votes: input.votes.length, tasks: input.tasks.length, rows };
  },

  /** The figures alone (modelReport over the same input), in ms: the part of render that is not React. */
  compute(boardCount, members) {
    const input = categoryFixture(boardCount, members);
    const started = performance.now();
    modelReport(input);
    return performance.now() - started;
  },

  /** The exported HTML of one board of 8 models x 20 prompts whose cells show `urls` (160 pictures). */
  async exportBytes(urls) {
    const rnd = random(7);
    let i = 0;
    const tasks: HistoryEntry[] = [];
    const board = boardOf(0, (row, m) => {
      const id = `t-${row}-${m}`;
      const e = entry(id, m, rnd, urls[i++ % urls.length]);
      // Every cell has its picture: a failed one would make the file smaller than a full board's.
      tasks.push({
        ...e,
        status: 'succeeded',
        outputs: [{ url: urls[(i - 1) % urls.length]! }],
        error: null,
      });
      return id;
    });
    const started = performance.now();
    const grid = await loadGrid(gridSources(board, tasks, names));
    const report = modelReport({ boards: [board], tasks, votes: [] });
    const html = reportHtml({
      boardName: board.name,
      createdAt: new Date(),
      report,
      names,
      inTeam: true,
      grid,
    });
    const ms = performance.now() - started;
    const pictures = grid.rows.flatMap((r) => r.cells).filter((c) => c.picture).length;
    return { bytes: new Blob([html]).size, pictures, ms };
  },
};

await i18n.loadAndActivate({ locale: 'en', messages: {} });
document.body.dataset.ready = 'true';
