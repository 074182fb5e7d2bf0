import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Dialog } from './dialog';
import { ShortcutList } from './shortcut-list';
import { shortcutFor, shortcutsOf, type ShortcutScreen } from './shortcuts';

/**
 * "?" anywhere (outside a field) shows "Keyboard shortcuts": the shortcuts of the screen in view, from
 * the one list (shortcuts.ts). The Viewer keeps its own panel, over the output, and takes its "?" first.
 */
export function ShortcutsDialog({ screen }: { screen: Exclude<ShortcutScreen, 'everywhere' | 'viewer'> }) {
  const { i18n, t } = useLingui();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !shortcutFor(['help'], e)) return;
      e.preventDefault();
      setOpen((o) => !o);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={t`Keyboard shortcuts`}
      description={i18n._(DESCRIPTIONS[screen])}
    >
      <ShortcutList shortcuts={shortcutsOf(screen)} />
    </Dialog>
  );
}

const DESCRIPTIONS: Record<Exclude<ShortcutScreen, 'everywhere' | 'viewer'>, MessageDescriptor> = {
  studio: msg`On the studio. None of them works while you type in a field, except a field's own.`,
  gallery: msg`On the gallery. The Viewer lists its own with "?".`,
  compare: msg`On the compare boards. None of them works while you type in a field.`,
  usage: msg`On the usage view.`,
};
