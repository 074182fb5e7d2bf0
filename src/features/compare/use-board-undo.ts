import { useEffect, useMemo } from 'react';
import { shortcutFor } from '../../components/shortcuts';
import type { CompareTeam } from './compare-team';

// A team board's undo history, this member's own edits only (the others' stay), and its keys: Ctrl/Cmd+Z and
// Shift+Ctrl/Cmd+Z anywhere on the page. A text field's Ctrl/Cmd+Z undoes that field's typing (the
// browser's), not the board's: shortcutFor leaves keys typed into a field alone.

export function useBoardUndo(team: CompareTeam | null, inTeam: boolean, boardId: string) {
  const history = useMemo(
    () => (team && inTeam ? team.boards.history(boardId) : null),
    [team, inTeam, boardId],
  );
  useEffect(() => {
    if (!history) return;
    const onKey = (e: KeyboardEvent) => {
      const shortcut = shortcutFor(['compare.undo', 'compare.redo'], e);
      if (!shortcut) return;
      e.preventDefault();
      if (shortcut === 'compare.redo') history.redo();
      else history.undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [history]);
  return history;
}
