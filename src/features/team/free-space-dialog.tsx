import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
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
}

const idOf = (item: Pick<OwnItem, 'root' | 'key'>) => `${item.root}\u0000${item.key}`;

export function FreeSpaceDialog({ open, onOpenChange, share, items, onDelete }: FreeSpaceDialogProps) {
  const { t } = useLingui();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t`Free space`}
      description={t`Your shared prompts and tasks' copies in the team, oldest first. Deleting them here takes them out of the team only: your history and your prompt library keep them.`}
    >
      {open && <FreeSpaceList share={share} items={items} onDelete={onDelete} />}
    </Dialog>
  );
}

function FreeSpaceList({ share, items, onDelete }: Omit<FreeSpaceDialogProps, 'open' | 'onOpenChange'>) {
  const { t } = useLingui();
  const [list, setList] = useState(items);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
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
      <p className="text-sm text-slate-600 dark:text-slate-400">{t`You have no shared prompts or tasks' copies in the team.`}</p>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {limit === null ? t`Your share uses ${used}.` : t`Your share uses ${used} of ${limit}.`}
      </p>
      <ul aria-label={t`Your shared items`} className="max-h-[50vh] space-y-1 overflow-y-auto">
        {list.map((item) => {
          const id = idOf(item);
          const size = formatBytes(item.bytes);
          const when = formatDateTime(item.at);
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
