import { t } from '@lingui/core/macro';
import type { ReactNode } from 'react';
import { toast } from 'sonner';

// The studio's one notice system (sonner, drawn by <NoticeArea/> in notice-area.tsx). Nothing else
// imports sonner: a notice is `notify`, `notifyError` or `notifyUndo`, whatever screen it comes from.

// A modal dialog traps the focus and makes the page behind it inert: a notice of something done in it
// is drawn inside it (each Dialog holds a NoticeArea of its own), so its "Undo" can be reached.
const dialogAreas: string[] = [];
/** A NoticeArea inside a dialog says it is open; the notices go to the last one opened. */
export function openNoticeArea(id: string): () => void {
  dialogAreas.push(id);
  return () => {
    const at = dialogAreas.lastIndexOf(id);
    if (at >= 0) dialogAreas.splice(at, 1);
  };
}
const where = () => {
  const id = dialogAreas.at(-1);
  return id ? { toasterId: id } : {};
};

/** How long a notice stays (sonner pauses the count while the pointer or the focus is on it). */
const NOTICE_MS = 6_000;
/** An undo waits longer: time to read what happened and reach the button from the keyboard (Alt+T). */
const UNDO_MS = 10_000;

/**
 * A notice that says what happened; `id` replaces an earlier notice of the same id. `onPage`: about the
 * page, not a dialog (a preset applied from the Presets dialog, which closes as it applies: a notice drawn
 * in a dialog on its way out would go with it).
 */
export function notify(text: string, { id, onPage }: { id?: string; onPage?: boolean } = {}): void {
  toast(text, { ...(onPage ? {} : where()), duration: NOTICE_MS, ...(id ? { id } : {}) });
}

/**
 * Something was done, but not all of it as asked (a preset applied without what no longer fits, files
 * skipped): said as a warning, with what was left out as `detail`, and kept until dismissed or replaced,
 * since what it lists is read at the reader's pace.
 */
export function notifyWarning(
  text: string,
  { id, detail, onPage }: { id?: string; detail?: ReactNode; onPage?: boolean } = {},
): void {
  toast.warning(text, {
    ...(onPage ? {} : where()),
    duration: Infinity,
    ...(id ? { id } : {}),
    ...(detail ? { description: detail } : {}),
  });
}

/** Something failed: said as an error and kept until dismissed or replaced. */
export function notifyError(text: string, { id, detail }: { id?: string; detail?: string } = {}): void {
  toast.error(text, {
    ...where(),
    duration: Infinity,
    ...(id ? { id } : {}),
    ...(detail ? { description: detail } : {}),
  });
}

/**
 * Something destructive was done: the notice offers "Undo" for a while. `undo` puts things back as
 * they were; when it fails (or rejects), the notice says so. `undone` is said once it has.
 */
export function notifyUndo(
  text: string,
  undo: () => void | Promise<void>,
  { undone = t`Undone.`, label = t`Undo` }: { undone?: string; label?: string } = {},
): void {
  toast(text, {
    ...where(),
    duration: UNDO_MS,
    action: {
      label,
      onClick: () => {
        void (async () => {
          try {
            await undo();
            notify(undone);
          } catch {
            notifyError(t`Could not undo.`);
          }
        })();
      },
    },
  });
}
