import { createContext, useContext } from 'react';

// What a prompt field can reach beyond its form (product-notes §3 "Prompt library"): the prompt sent last
// (ArrowUp in an empty prompt) and the library dialog. The prompts feature provides them per key (its
// PromptLibraryProvider, placed by the app); a form without a provider (tests, a compare board) has
// neither. Here, below both features, so the forms read what the prompts feature provides.

export interface PromptTools {
  /** The prompt sent last with this key, if any. */
  last: () => string | undefined;
  /** Opens "Prompt library"; a chosen prompt is handed to `onPick`. */
  openLibrary: (onPick: (text: string) => void) => void;
}

export const PromptToolsContext = createContext<PromptTools | null>(null);

export const usePromptTools = (): PromptTools | null => useContext(PromptToolsContext);
