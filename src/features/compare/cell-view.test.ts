import { describe, expect, it } from 'vitest';
import type { Model } from '../../../contract/catalog';
import type { Cell } from '../../model/compare/boards';
import { makeEntry } from '../../test/gallery-test-utils';
import { planCells, resolveColumns, type PlannedCell } from './board-model';
import { cellCostText, cellEntry, cellRunState, cellSeconds, cellStatus, type CellView } from './cell-view';

// What a cell shows, from its run on the board, its task in the history and its quote.

const lumen: Model = {
  id: 'lumen',
  name: 'Lumen',
  type: 'image',
  subType: 'default',
  description: '',
  brand: { id: 'brand', name: 'Brand' },
  promptRequired: false,
  params: [{ id: 'prompt', type: 'long_text', required: false }],
  versions: [{ id: 'v1', name: 'Version 1' }],
  tags: [],
};
const setup = {
  category: 'image/default',
  columns: [{ modelId: 'lumen', versionId: 'v1' }],
  rows: [{ id: 'r1', prompt: 'a lighthouse' }],
  shared: {},
  perColumn: {},
};
const planned: PlannedCell = planCells(setup, resolveColumns(setup, [lumen]))[0]!;
const run = (patch: Partial<Cell> = {}): Cell => ({
  idempotencyKey: 'key-1',
  request: planned.body,
  runAt: 0,
  ...patch,
});
const view = (patch: Partial<CellView>): CellView => ({
  ...planned,
  entry: null,
  state: 'never',
  quote: undefined,
  quoteError: null,
  sendNote: null,
  ...patch,
});

describe('cellEntry', () => {
  it('finds the task by its id, and before the answer came by the key it was sent with', () => {
    const byId = makeEntry('task-1', { idempotencyKey: 'other' });
    const byKey = makeEntry('task-2', { idempotencyKey: 'key-1' });
    expect(cellEntry(run({ taskId: 'task-1' }), [byKey, byId])).toBe(byId);
    expect(cellEntry(run(), [byId, byKey])).toBe(byKey);
    expect(cellEntry(undefined, [byId, byKey])).toBeNull();
  });
});

describe('cellRunState', () => {
  it('says never run, changed since run, succeeded, failed or on its way', () => {
    const done = makeEntry('t', { status: 'succeeded' });
    expect(cellRunState(planned, undefined, null, false)).toBe('never');
    expect(cellRunState(planned, run({ request: '{"other":1}' }), done, false)).toBe('changed');
    expect(cellRunState(planned, run(), done, false)).toBe('succeeded');
    expect(cellRunState(planned, run(), makeEntry('t', { status: 'cancelled' }), false)).toBe('failed');
    expect(cellRunState(planned, run(), makeEntry('t', { status: 'running' }), true)).toBe('active');
  });

  it('counts a refused send as failed only while the history has no task for it', () => {
    expect(cellRunState(planned, run(), null, true)).toBe('failed');
    expect(cellRunState(planned, run(), null, false)).toBe('active');
  });
});

describe('cell facts', () => {
  it('shows the credits charged once finished, and "≈" the quote before', () => {
    const quote = { credits: 7, estimatedSeconds: 5 } as CellView['quote'];
    const charged = makeEntry('t', { creditsCharged: 4 });
    expect(cellCostText(view({ state: 'succeeded', entry: charged, quote }))).toMatch(/^4\b/);
    expect(cellCostText(view({ state: 'never', quote }))).toMatch(/^≈ 7\b/);
    expect(cellCostText(view({ state: 'never' }))).toBeNull();
  });

  it('takes the time from the history, and the status from the task once there is one', () => {
    const entry = makeEntry('t', { status: 'running', createdAt: 1_000, completedAt: 13_400 });
    expect(cellSeconds(view({ state: 'succeeded', entry }))).toBe(12);
    expect(cellSeconds(view({ state: 'active', entry: { ...entry, completedAt: null } }))).toBeNull();
    expect(cellStatus(view({ state: 'active', entry }))).toBe('running');
    expect(cellStatus(view({ state: 'active', sendNote: 'refused' }))).toBe('not sent');
    expect(cellStatus(view({ state: 'active' }))).toBe('sending');
  });
});
