import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { PromptToolsContext, type PromptTools } from '../../components/prompt-tools';
import type { PromptLibrary } from '../../model/library/prompt-library';
// Types only: the team space's code (and Yjs) stays out of this chunk; the app hands the instance down.
import type { TeamLibrary } from '../../model/team/team-library';

// The prompt library behind every prompt field (product-notes §3 "Presets, batches, prompt library"):
// "Prompt library" and ArrowUp recall. Its dialog is a chunk of its own, loaded when first opened.

const PromptLibraryDialog = lazy(() =>
  import('./prompt-library-dialog').then((m) => ({ default: m.PromptLibraryDialog })),
);

/** Gives every prompt field below it the library of this key: "Prompt library" and ArrowUp recall. */
export function PromptLibraryProvider({
  library,
  team,
  children,
}: {
  library: PromptLibrary | null;
  /** The team's shared library, when the team space is on. */
  team: TeamLibrary | undefined;
  children: ReactNode;
}) {
  const [picking, setPicking] = useState<{ onPick: (text: string) => void } | null>(null);
  const [open, setOpen] = useState(false);
  const tools = useMemo<PromptTools | null>(
    () =>
      library && {
        last: () => library.last(),
        openLibrary: (onPick) => {
          setPicking({ onPick });
          setOpen(true);
        },
      },
    [library],
  );
  return (
    <PromptToolsContext.Provider value={tools}>
      {children}
      {library && picking && (
        <Suspense fallback={null}>
          <PromptLibraryDialog
            library={library}
            open={open}
            onOpenChange={setOpen}
            onPick={picking.onPick}
            team={team}
          />
        </Suspense>
      )}
    </PromptToolsContext.Provider>
  );
}
