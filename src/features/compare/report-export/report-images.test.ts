import { describe, expect, it } from 'vitest';
import { cellKey, type Cell } from '../../../model/compare/boards';
import type { ReportBoard } from '../../../model/compare/model-report';
import type { HistoryEntry } from '../../../model/history/history-types';
import { fitWithin, gridSources, loadGrid } from './report-images';

// The report's pictures: which URL each cell draws (an image's file, a video's poster, none for audio or
// a cell without an output), the size they are drawn at, and the grid once loaded, a few at a time, with
// words where a picture could not be made.

const entry = (
  id: string,
  mediaType: 'image' | 'video' | 'audio',
  status: HistoryEntry['status'],
  output?: { url: string; thumbnailUrl?: string },
): HistoryEntry => ({
  taskId: id,
  connectionId: 'conn',
  request: { params: {} },
  meta: {
    title: 'm',
    subtitle: '',
    kind: 'model',
    mediaType,
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status,
  outputs: output ? [output] : [],
  error: null,
  creditsCharged: 1,
  createdAt: 0,
  completedAt: 1000,
  idempotencyKey: `k-${id}`,
  unseen: false,
});

const cell = (taskId: string): Cell => ({ idempotencyKey: `k-${taskId}`, taskId, request: '{}', runAt: 0 });

describe('fitWithin', () => {
  it('scales the long side down to the limit, never up', () => {
    expect(fitWithin(2048, 1024, 512)).toEqual({ width: 512, height: 256 });
    expect(fitWithin(1024, 2048, 512)).toEqual({ width: 256, height: 512 });
    expect(fitWithin(300, 200, 512)).toEqual({ width: 300, height: 200 });
    expect(fitWithin(1, 4000, 512)).toEqual({ width: 1, height: 512 });
  });
});

describe('gridSources', () => {
  const board: ReportBoard = {
    id: 'b',
    setup: {
      category: 'video/text-ref',
      columns: [
        { modelId: 'a', versionId: '1' },
        { modelId: 'b', versionId: '2' },
      ],
      rows: [
        { id: 'r1', prompt: 'one' },
        { id: 'r2', prompt: 'two' },
        { id: 'r3', prompt: 'three' },
      ],
      shared: {},
      perColumn: {},
    },
    cells: {
      [cellKey('r1', 'a@1')]: cell('t1'),
      [cellKey('r1', 'b@2')]: cell('t2'),
      [cellKey('r2', 'a@1')]: cell('t3'),
      [cellKey('r3', 'a@1')]: cell('t4'),
      [cellKey('r3', 'b@2')]: cell('t5'),
    },
  };
  const tasks = [
    entry('t1', 'video', 'succeeded', {
      url: 'https://cdn.test/t1.mp4',
      thumbnailUrl: 'https://cdn.test/t1.jpg',
    }),
    entry('t2', 'video', 'succeeded', { url: 'https://cdn.test/t2.mp4' }),
    entry('t3', 'video', 'failed'),
    entry('t4', 'image', 'succeeded', { url: 'javascript:alert(1)' }),
    entry('t5', 'audio', 'succeeded', { url: 'https://cdn.test/t5.wav' }),
  ];
  const names = (key: string) => (key === 'a@1' ? { name: 'Alpha', versionName: 'v1' } : undefined);

  it('draws a video’s poster, never its file; says what stands in for the rest', () => {
    const grid = gridSources(board, tasks, names);
    expect(grid.columns).toEqual([
      { key: 'a@1', name: 'Alpha', version: 'v1' },
      { key: 'b@2', name: 'b', version: '2' },
    ]);
    expect(grid.rows.map((r) => r.prompt)).toEqual(['one', 'two', 'three']);
    expect(grid.rows.map((r) => r.cells)).toEqual([
      [
        // The output drawn (or standing in) is named, so its reviews can go beside it.
        { url: 'https://cdn.test/t1.jpg', note: '', outputKey: 't1#0' },
        { url: null, note: 'video, no poster', outputKey: 't2#0' },
      ],
      [
        { url: null, note: 'failed' },
        { url: null, note: 'not run' },
      ],
      [
        // A URL that is not http(s) is never loaded.
        { url: null, note: 'The picture could not be loaded.' },
        { url: null, note: '♪ audio', outputKey: 't5#0' },
      ],
    ]);
  });
});

describe('loadGrid', () => {
  it('loads a few pictures at a time and puts words where one could not be made', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `https://cdn.test/${i}.png`);
    const sources = {
      columns: [{ key: 'a@1', name: 'Alpha', version: 'v1' }],
      rows: [
        ...urls.map((url) => ({ prompt: url, cells: [{ url, note: '' }] })),
        { prompt: 'none', cells: [{ url: null, note: 'not run' }] },
      ],
    };
    let running = 0;
    let most = 0;
    const grid = await loadGrid(sources, async (url) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      if (url.endsWith('/3.png')) return null;
      if (url.endsWith('/4.png')) throw new Error('tainted');
      return `data:image/jpeg;base64,${btoa(url)}`;
    });
    expect(most).toBeLessThanOrEqual(6);
    expect(most).toBeGreaterThan(1);
    const cells = grid.rows.map((r) => r.cells[0]!);
    expect(cells[0]).toEqual({ picture: `data:image/jpeg;base64,${btoa(urls[0]!)}`, note: '' });
    expect(cells[3]).toEqual({ picture: null, note: 'The picture could not be loaded.' });
    expect(cells[4]).toEqual({ picture: null, note: 'The picture could not be loaded.' });
    expect(cells[20]).toEqual({ picture: null, note: 'not run' });
    expect(cells.filter((c) => c.picture)).toHaveLength(18);
  });

  it('puts each output’s reviews beside its picture, none where it has none or no output', async () => {
    const sources = {
      columns: [{ key: 'a@1', name: 'Alpha', version: 'v1' }],
      rows: [
        { prompt: 'one', cells: [{ url: 'https://cdn.test/1.png', note: '', outputKey: 't1#0' }] },
        { prompt: 'two', cells: [{ url: 'https://cdn.test/2.png', note: '', outputKey: 't2#0' }] },
        { prompt: 'three', cells: [{ url: null, note: 'not run' }] },
      ],
    };
    const grid = await loadGrid(
      sources,
      async () => 'data:image/jpeg;base64,AA==',
      (key) => (key === 't1#0' ? [{ byline: 'Approved by Ana', note: 'Ship it' }] : []),
    );
    expect(grid.rows.map((r) => r.cells[0]!.reviews)).toEqual([
      [{ byline: 'Approved by Ana', note: 'Ship it' }],
      undefined,
      undefined,
    ]);
  });
});
