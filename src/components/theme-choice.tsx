import { useId } from 'react';
import { setTheme, THEMES, useTheme, type Theme } from '../lib/theme';
import { Segmented } from './segmented';

const LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** "Theme": System, Light or Dark, remembered on this device (lib/theme.ts). */
export function ThemeChoice() {
  const theme = useTheme();
  const id = useId();
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <span id={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        Theme
      </span>
      <Segmented
        aria-labelledby={id}
        value={theme}
        onChange={(value) => {
          const chosen = THEMES.find((t) => t === value);
          if (chosen) setTheme(chosen);
        }}
        options={THEMES.map((t) => ({ value: t, label: LABELS[t] }))}
      />
    </div>
  );
}
