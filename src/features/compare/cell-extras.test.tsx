import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../contract/me';
import type { Board } from '../../model/compare/boards';
import { fakeClient, renderWithApi } from '../../test/catalog-test-utils';
import { freshDatabase } from '../../test/gallery-test-utils';
import { BoardEditor } from './board-editor';
import { CellExtrasContext } from './cell-extras';

// The app's extras in each cell (a cell's Review, the team's Comments) come in once, at the top of the
// Compare view, and each board row reads them from there: nothing between the two hands them on.

const me = { id: 'user-1', credits: { balance: 5000, currency: 'credits' } } as unknown as Me;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

const board: Board = {
  id: 'board-1',
  connectionId: 'conn-test',
  name: 'Lighthouses',
  createdAt: T0,
  updatedAt: T0,
  setup: {
    category: 'image/default',
    columns: [
      { modelId: 'lumen-canvas', versionId: 'lumen-canvas-v2' },
      { modelId: 'northwind-aurora', versionId: 'northwind-aurora-1' },
    ],
    rows: [
      { id: 'r1', prompt: 'a lighthouse in fog' },
      { id: 'r2', prompt: 'a harbour at dawn' },
    ],
    shared: {},
    perColumn: {},
  },
  cells: {},
  favourites: {},
  notes: {},
  blind: false,
  decisions: [],
  criteria: [],
  scores: {},
};

const editor = (
  <BoardEditor
    initial={board}
    runner={null}
    me={me}
    renderParam={() => null}
    shareUrl={(e) => `https://studio.test/?board=${e}`}
    team={null}
    onSaved={vi.fn()}
  />
);

beforeEach(async () => {
  await freshDatabase();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('A board’s cell extras', () => {
  it('each row reads them from the context above the board, told which cell it is in', async () => {
    renderWithApi(
      <CellExtrasContext value={({ cellKey }) => <span data-testid="cell-extras">{cellKey}</span>}>
        {editor}
      </CellExtrasContext>,
      fakeClient().client,
    );
    const extras = await screen.findAllByTestId('cell-extras');
    expect(extras.map((e) => e.textContent).sort()).toEqual([
      'r1|lumen-canvas@lumen-canvas-v2',
      'r1|northwind-aurora@northwind-aurora-1',
      'r2|lumen-canvas@lumen-canvas-v2',
      'r2|northwind-aurora@northwind-aurora-1',
    ]);
  });

  it('are none without a provider', async () => {
    renderWithApi(editor, fakeClient().client);
    await screen.findAllByText('a lighthouse in fog');
    expect(screen.queryByTestId('cell-extras')).toBeNull();
  });
});
