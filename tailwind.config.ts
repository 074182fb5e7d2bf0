import type { Config } from 'tailwindcss';
import colors from 'tailwindcss/colors';

// The studio's design tokens, loaded by src/index.css with @config. Tailwind 4 finds the class names in
// the sources itself and follows the system's dark mode by default, so no `content` or `darkMode` here.
// The theme below replaces Tailwind's defaults rather than extending them: only these colours, radii,
// shadows and fonts exist, so a class outside the palette generates nothing and shows in review.
const palette = {
  /** Text, surfaces and borders. */
  slate: colors.slate,
  /** The accent: primary buttons, focus rings, selection. */
  indigo: colors.indigo,
  /** Errors, failed tasks, destructive actions. */
  rose: colors.rose,
  /** Warnings, stars. */
  amber: colors.amber,
  /** Success, ready uploads. */
  emerald: colors.emerald,
  /** Information, running tasks. */
  sky: colors.sky,
};

export default {
  theme: {
    colors: {
      ...palette,
      black: colors.black,
      white: colors.white,
      transparent: 'transparent',
      current: 'currentColor',
      inherit: 'inherit',
    },
    borderRadius: {
      none: '0',
      sm: '0.25rem',
      DEFAULT: '0.25rem',
      md: '0.375rem',
      lg: '0.5rem',
      xl: '0.75rem',
      '2xl': '1rem',
      full: '9999px',
    },
    boxShadow: {
      none: '0 0 #0000',
      sm: '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
      DEFAULT: '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
      lg: '0 10px 15px -3px rgb(0 0 0 / 0.1), 0 4px 6px -4px rgb(0 0 0 / 0.1)',
      '2xl': '0 25px 50px -12px rgb(0 0 0 / 0.25)',
    },
    // The system's own fonts: nothing to download, so no layout shift when a web font arrives.
    fontFamily: {
      sans: [
        'system-ui',
        '-apple-system',
        '"Segoe UI"',
        'Roboto',
        '"Helvetica Neue"',
        '"Noto Sans"',
        '"Liberation Sans"',
        'Arial',
        'sans-serif',
      ],
      mono: ['ui-monospace', 'SFMono-Regular', 'Menlo', 'Consolas', '"Liberation Mono"', 'monospace'],
    },
  },
} satisfies Config;
