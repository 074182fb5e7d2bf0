import type { BoardSetup, Column } from '../../model/compare/boards';

/** Where a board comes from when the Compare view opens: the URL names it, the Boards list picks it. */
export type BoardSource =
  | { kind: 'saved'; id: string }
  | { kind: 'shared'; setup: BoardSetup }
  | { kind: 'new'; category?: string; columns?: Column[] };
