import { Trans, useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { ShortcutList } from '../../components/shortcut-list';
import { shortcutsOf } from '../../components/shortcuts';

/** The Viewer's keys, listed over its stage ("?" or the Keyboard button). */
export function ViewerShortcuts({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  return (
    <section
      aria-label={t`Keyboard shortcuts`}
      className="absolute top-14 end-3 z-20 w-72 rounded-xl bg-white p-4 text-slate-900 shadow-2xl ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold">
          <Trans>Keyboard shortcuts</Trans>
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t`Hide shortcuts`}
          className="rounded-md p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      <ShortcutList shortcuts={shortcutsOf('viewer')} />
    </section>
  );
}
