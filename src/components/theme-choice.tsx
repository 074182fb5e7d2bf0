import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { setTheme, THEMES, useTheme, type Theme } from '../lib/theme';
import { Segmented } from './segmented';

const LABELS: Record<Theme, MessageDescriptor> = {
  system: msg({ message: 'System', comment: 'theme: follow the system’s light or dark' }),
  light: msg({ message: 'Light', comment: 'theme' }),
  dark: msg({ message: 'Dark', comment: 'theme' }),
};

/** "Theme": System, Light or Dark, remembered on this device (lib/theme.ts). */
export function ThemeChoice() {
  const { i18n } = useLingui();
  const theme = useTheme();
  const id = useId();
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <span id={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        <Trans>Theme</Trans>
      </span>
      <Segmented
        aria-labelledby={id}
        value={theme}
        onChange={(value) => {
          const chosen = THEMES.find((t) => t === value);
          if (chosen) setTheme(chosen);
        }}
        options={THEMES.map((t) => ({ value: t, label: i18n._(LABELS[t]) }))}
      />
    </div>
  );
}
