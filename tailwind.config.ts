import type { Config } from 'tailwindcss';

// Tailwind 4 is configured in CSS (src/index.css); this file holds the theme extensions
// it loads with @config, so the design tokens live in one typed place.
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  darkMode: 'media',
  theme: {
    extend: {
      fontFamily: {
        sans: ['Inter', 'ui-sans-serif', 'system-ui', 'sans-serif'],
      },
    },
  },
} satisfies Config;
