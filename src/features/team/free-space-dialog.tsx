import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { notifyUndo } from '../../components/notices';
import { formatBytes, formatDateTime } from '../../lib/format';
import type { OwnItem, ShareState } from '../../model/team/team-share';

// "Free space" (docs/team-space.md): this member's shared prompts and tasks' copies in the team, oldest
// first with what each takes of their share of the room; the member deletes the ones they choose, with
// Undo. Deleting a task's copy leaves it in this device's history; a prompt stays in the member's library.

export interface FreeSpaceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  share: ShareState;
  /** Read when the dialog opens (the team's records change meanwhile). */
  items: () => readonly OwnItem[];
  /** Takes the chosen records out of the team; answers what puts them back (Undo). */
  onDelete: (items: readonly OwnItem[]) => () => void;
  /**
   * What tells an item apart from the others of the same label: a task's prompt, from this device's
   * history (a task's label is its model, the same for every task of that model); undefined: none.
   */
  detailOf?: (item: OwnItem) => string | undefined;
}

const idOf = (item: Pick<OwnItem, 'root' | 'key'>) => `${item.root}\u0000${item.key}`;

export function FreeSpaceDialog({
  open,
  onOpenChange,
  share,
  items,
  onDelete,
  detailOf,
}: FreeSpaceDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t`Free space`}
      description={t`Your shared prompts and tasks' copies in the team, oldest first. Deleting them here takes them out of the team only: your history and your prompt library keep them.`}
    >
      {open && <FreeSpaceList share={share} items={items} onDelete={onDelete} detailOf={detailOf} />}
    </Dialog>
  );
}

function FreeSpaceList({
  share,
  items,
  onDelete,
  detailOf,
}: Omit<FreeSpaceDialogProps, 'open' | 'onOpenChange'>) {
  const { t } = useLingui();
  const [list, setList] = useState(items);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  // Delete is disabled once it has deleted (nothing is chosen any more): the focus it had would fall to
  // the page behind the dialog, so it moves to the share's new figure (or to the empty list's words).
  const summary = useRef<HTMLParagraphElement>(null);
  const [deletions, setDeletions] = useState(0);
  useEffect(() => {
    if (deletions > 0) summary.current?.focus();
  }, [deletions]);
  const used = formatBytes(share.used);
  const limit = share.limit === null ? null : formatBytes(share.limit);
  const chosenBytes = formatBytes(list.filter((i) => chosen.has(idOf(i))).reduce((n, i) => n + i.bytes, 0));
  const toggle = (id: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const remove = () => {
    const picked = list.filter((i) => chosen.has(idOf(i)));
    if (picked.length === 0) return;
    const undo = onDelete(picked);
    setList(items());
    setChosen(new Set());
    setDeletions((n) => n + 1);
    notifyUndo(
      plural(picked.length, {
        one: 'Deleted # item from the team.',
        other: 'Deleted # items from the team.',
      }),
      () => {
        undo();
        setList(items());
      },
      { undone: t`Put back in the team.` },
    );
  };
  if (list.length === 0) {
    return (
      <p
        ref={summary}
        tabIndex={-1}
        className="text-sm text-slate-600 outline-none dark:text-slate-400"
      >{t`You have no shared prompts or tasks' copies in the team.`}</p>
    );
  }
  return (
    <div className="space-y-3">
      <p ref={summary} tabIndex={-1} className="text-sm text-slate-700 outline-none dark:text-slate-300">
        {limit === null ? t`Your share uses ${used}.` : t`Your share uses ${used} of ${limit}.`}
      </p>
      <ul aria-label={t`Your shared items`} className="max-h-[50vh] space-y-1 overflow-y-auto">
        {list.map((item) => {
          const id = idOf(item);
          const size = formatBytes(item.bytes);
          const when = formatDateTime(item.at);
          const detail = detailOf?.(item);
          return (
            <li key={id}>
              <label className="flex items-start gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-50 dark:hover:bg-slate-800">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={chosen.has(id)}
                  onChange={(e) => toggle(id, e.target.checked)}
                />
                <span className="min-w-0 flex-1">
                  <span
                    dir="auto"
                    translate="no"
                    className="block truncate text-slate-900 dark:text-slate-100"
                  >
                    {item.label}
                  </span>
                  {detail && (
                    <span
                      dir="auto"
                      translate="no"
                      className="block truncate text-slate-700 dark:text-slate-300"
                    >
                      {detail}
                    </span>
                  )}
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {item.root === 'prompts'
                      ? t`Prompt · ${when} · ${size}`
                      : t`Task's copy · ${when} · ${size}`}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="flex items-center justify-between gap-3">
        <span className="text-xs text-slate-600 dark:text-slate-400">{t`Chosen: ${chosenBytes}`}</span>
        <Button variant="danger" onClick={remove} disabled={chosen.size === 0}>
          {t`Delete`}
        </Button>
      </div>
    </div>
  );
}
