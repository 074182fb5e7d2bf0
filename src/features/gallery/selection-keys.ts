import type { KeyboardEvent } from 'react';
import { shortcutFor } from '../../components/shortcuts';
import { EMPTY_SELECTION, selectAll, type TileSelection } from './tile-selection';

/**
 * The Gallery's own keys: select every tile shown (Ctrl/Cmd+A), clear the selection (Escape). `order`
 * builds the shown order of keys when it is needed, not on every change of the history.
 */
export function selectionKeyHandler(
  order: () => string[],
  selection: TileSelection,
  setSelection: (selection: TileSelection) => void,
): (e: KeyboardEvent) => void {
  return (e) => {
    // React bubbles a portal's keydown up the component tree, so the Viewer's, Compare two's and the
    // download dialog's keys arrive here too: they belong to that dialog, not to the grid behind it.
    if (!(e.target instanceof Node) || !e.currentTarget.contains(e.target)) return;
    const shortcut = shortcutFor(['gallery.selectAll', 'gallery.clearSelection'], e);
    if (shortcut === 'gallery.selectAll') {
      e.preventDefault();
      setSelection(selectAll(order()));
    } else if (shortcut === 'gallery.clearSelection' && selection.keys.size > 0) {
      setSelection(EMPTY_SELECTION);
    }
  };
}
