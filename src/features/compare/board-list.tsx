import { ph } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Plus, Share2, Trash2 } from 'lucide-react';
import { useApi } from '../../api/api-context';
import { Button } from '../../components/button';
import { notifyUndo } from '../../components/notices';
import { deleteBoard, newId, saveBoard, type Board } from '../../model/compare/boards';
import type { TeamBoard } from '../../model/compare/team-boards';
import { displayText } from '../../lib/untrusted-text';
import type { BoardSource } from './board-source';
import type { CompareTeam } from './compare-team';
import { ChosenLine } from './decision';
import { useDeviceBoards } from './use-device-boards';

// The Boards list beside the board (product-notes §3 "Compare"): New board; with the team space on, the
// team's boards first, then those on this device (each can be shared to the team as a copy). Opening a board
// goes through the view's onOpen; Delete takes effect at once, with Undo in its notice.

export function BoardList({
  team,
  teamBoards,
  currentId,
  onOpen,
}: {
  team: CompareTeam | null;
  teamBoards: readonly TeamBoard[];
  /** The id of the board shown (null while none is). */
  currentId: string | null;
  onOpen: (source: BoardSource) => void;
}) {
  const { t } = useLingui();
  const { connectionId } = useApi();
  const boards = useDeviceBoards(connectionId);
  // Beside a long board, the list stays in view under the sticky header (h-14) as the board scrolls.
  return (
    <nav
      aria-label={t`Boards`}
      className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 lg:sticky lg:top-18 lg:max-h-[calc(100dvh-5.5rem)] lg:overflow-y-auto dark:bg-slate-900 dark:ring-slate-800"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold">
          <Trans>Boards</Trans>
        </h2>
        <Button size="sm" variant="ghost" onClick={() => onOpen({ kind: 'new' })}>
          <Plus className="size-3.5" aria-hidden="true" />
          <Trans>New board</Trans>
        </Button>
      </div>
      {team && (
        <>
          <h3 className="mt-1 mb-1 text-xs font-semibold text-slate-600 dark:text-slate-400">
            <Trans>Team boards</Trans>
          </h3>
          {teamBoards.length === 0 ? (
            <p className="mb-3 text-xs text-slate-500 dark:text-slate-400">
              <Trans>Boards you build now are shared with your team.</Trans>
            </p>
          ) : (
            <ul className="mb-3 flex flex-col gap-1" aria-label={t`Team boards`}>
              {teamBoards.map((record) => (
                <BoardListItem
                  key={record.board.id}
                  board={record.board}
                  blind={team.boards.blindForMe(record)}
                  current={currentId === record.board.id}
                  onOpen={() => onOpen({ kind: 'saved', id: record.board.id })}
                  onDelete={(current) => {
                    const undo = team.boards.delete(record.board.id);
                    if (current) onOpen({ kind: 'new' });
                    const name = displayText(record.board.name);
                    notifyUndo(t`Deleted the board “${name}” for everyone in the team.`, undo, {
                      undone: t`Restored the board “${name}”.`,
                    });
                  }}
                />
              ))}
            </ul>
          )}
          {boards.length > 0 && (
            <h3 className="mt-1 mb-1 text-xs font-semibold text-slate-600 dark:text-slate-400">
              <Trans>On this device</Trans>
            </h3>
          )}
        </>
      )}
      {boards.length === 0 ? (
        !team && (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>Boards you build are saved here, on this device.</Trans>
          </p>
        )
      ) : (
        <ul className="flex flex-col gap-1" aria-label={team ? t`Boards on this device` : undefined}>
          {boards.map((b) => (
            <BoardListItem
              key={b.id}
              board={b}
              blind={b.blind}
              current={currentId === b.id}
              onOpen={() => onOpen({ kind: 'saved', id: b.id })}
              onDelete={(current) => {
                void deleteBoard(connectionId, b.id).then(() => {
                  if (current) onOpen({ kind: 'new' });
                  const name = displayText(b.name);
                  notifyUndo(
                    t`Deleted the board “${name}”. Its tasks stay in the history.`,
                    () => saveBoard(b),
                    { undone: t`Restored the board “${name}”.` },
                  );
                });
              }}
              onShare={
                team
                  ? () => {
                      // A copy: the board on this device stays as it was (its votes stay there too).
                      const copy = team.boards.create(b, newId());
                      onOpen({ kind: 'saved', id: copy.id });
                    }
                  : undefined
              }
            />
          ))}
        </ul>
      )}
    </nav>
  );
}

function BoardListItem({
  board: b,
  blind,
  current,
  onOpen,
  onDelete,
  onShare,
}: {
  board: Board;
  /** Blind for this member: the decision, which names a model, is not shown. */
  blind: boolean;
  current: boolean;
  onOpen: () => void;
  onDelete: (current: boolean) => void;
  onShare?: () => void;
}) {
  const { t } = useLingui();
  const models = b.setup.columns.length;
  const prompts = b.setup.rows.length;
  return (
    <li className="flex items-center gap-1">
      <button
        type="button"
        aria-current={current ? 'true' : undefined}
        onClick={onOpen}
        className="min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-start text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 aria-[current=true]:bg-indigo-50 aria-[current=true]:font-medium dark:hover:bg-slate-800 dark:aria-[current=true]:bg-indigo-950/50"
      >
        <span dir="auto" translate="no">
          {displayText(b.name) || t`Untitled board`}
        </span>
        <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
          <Trans>
            <Plural value={models} one="# model" other="# models" /> ·{' '}
            <Plural value={prompts} one="# prompt" other="# prompts" />
          </Trans>
        </span>
        {!blind && <ChosenLine board={b} />}
      </button>
      {onShare && (
        <Button
          size="sm"
          variant="ghost"
          aria-label={t`Share to team: ${ph({ name: b.name })}`}
          onClick={onShare}
        >
          <Share2 className="size-3.5" aria-hidden="true" />
        </Button>
      )}
      <Button
        size="sm"
        variant="ghost"
        aria-label={t`Delete board ${ph({ name: b.name })}`}
        onClick={() => onDelete(current)}
      >
        <Trash2 className="size-3.5" aria-hidden="true" />
      </Button>
    </li>
  );
}
