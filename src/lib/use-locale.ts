import { useSyncExternalStore } from 'react';
import { getLocale, subscribeLocale } from './locale';

/**
 * The active locale (locale.ts). A component that shows a formatted number, date or size calls it, so
 * it renders again in the new language when the locale changes, even where its props did not. The
 * prerendered connect screen (src/prerender.tsx) reads the same module at build time.
 */
export const useLocale = (): string => useSyncExternalStore(subscribeLocale, getLocale, getLocale);
