import { useLingui } from '@lingui/react/macro';
import type { Shortcut } from './shortcuts';

/** Shortcuts as a list of keys and what they do (the Viewer's panel, the "Keyboard shortcuts" dialog). */
export function ShortcutList({ shortcuts }: { shortcuts: readonly Shortcut[] }) {
  const { i18n } = useLingui();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      {shortcuts.map((s) => (
        <div key={`${s.keys}|${s.description?.id ?? ''}`} className="contents">
          <dt>
            <kbd className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs whitespace-nowrap dark:bg-slate-800">
              {s.keys}
            </kbd>
          </dt>
          <dd className="text-slate-700 dark:text-slate-300">{s.description ? i18n._(s.description) : ''}</dd>
        </div>
      ))}
    </dl>
  );
}
