// What Compare two shows (product-notes §3): two sides and how they are laid out. Chosen by the Gallery (two
// selected outputs, or an edit and its source) and by the Viewer ("Compare with source"), shown by the
// Compare two dialog: the shape they share.

export interface CompareSide {
  label: string;
  url: string;
  mediaType: 'image' | 'video' | 'audio';
  /** The output shown (`${taskId}#${index}`), when it is one: its kept copy stands in for a failed URL. */
  keptKey?: string;
}

export type CompareMode = 'side' | 'slider';

/** Older first: before, then after; an edit is shown on the slider. */
export interface ComparePair {
  before: CompareSide;
  after: CompareSide;
  mode: CompareMode;
}
