import { Trans } from '@lingui/react/macro';
import { Columns3, ScanText } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import type { TaskRequest } from '../../contract/task';
import { useApi } from '../api/api-context';
import { Button } from '../components/button';
import { MediaInput } from '../features/forms/media/media-input';
import { PresetButtons } from '../features/presets/preset-buttons';
import { OpenRecipe, type RecipeUse } from '../features/recipe/open-recipe';
import type { Column } from '../model/compare/boards';
import type { Preset, PresetStore } from '../model/library/presets';
import type { ResolvedSelection, SelectionKind } from '../model/selection';
import type { TeamSession } from '../model/team/team-session';

// The row of tools above the form: presets, "Add to comparison", "Open recipe" and "Describe image".

const DescribeImageDialog = lazy(() =>
  import('../features/describe/describe-dialog').then((m) => ({ default: m.DescribeImageDialog })),
);

export function FormTools({
  presets,
  teamLibrary,
  current,
  pickedKind,
  request,
  onApplyPreset,
  onAddToComparison,
  draftCount,
  recipeFile,
  onRecipeFile,
  onUseRecipe,
  formIds,
  onUseAsPrompt,
}: {
  presets: PresetStore | undefined;
  teamLibrary: TeamSession['library'] | undefined;
  current: ResolvedSelection | undefined;
  /** What is picked (the URL's), known before the catalog has resolved it into `current`. */
  pickedKind: SelectionKind | undefined;
  request: TaskRequest | null;
  onApplyPreset: (preset: Preset) => void;
  onAddToComparison: (category: string, column: Column) => void;
  draftCount: number;
  /** The file whose recipe is shown (chosen with "Open recipe" or dropped on the form). */
  recipeFile: File | null;
  onRecipeFile: (file: File | null) => void;
  onUseRecipe: (use: RecipeUse) => void;
  formIds: ReadonlySet<string> | null;
  onUseAsPrompt: ((text: string) => void) | undefined;
}) {
  const { baseUrl } = useApi();
  const [describing, setDescribingState] = useState(false);
  // Mounted from the first opening on, and kept: its image, language and result survive closing it.
  const [describeLoaded, setDescribeLoaded] = useState(false);
  const setDescribing = (open: boolean) => {
    if (open) setDescribeLoaded(true);
    setDescribingState(open);
  };
  return (
    <>
      <div className="-mt-1 mb-3 flex flex-wrap justify-end gap-1 sm:-mt-3">
        <PresetButtons
          store={presets}
          current={current}
          request={request}
          onApply={onApplyPreset}
          team={teamLibrary}
        />
        {(current?.kind === 'model' || (!current && pickedKind === 'model')) && (
          // A model picked but not read from the catalog yet: there, off, so the row does not move.
          <Button
            variant="ghost"
            size="sm"
            disabled={current?.kind !== 'model'}
            onClick={() =>
              current?.kind === 'model' &&
              onAddToComparison(`${current.model.type}/${current.model.subType}`, {
                modelId: current.model.id,
                versionId: current.versionId,
              })
            }
          >
            <Columns3 className="size-4" aria-hidden="true" />
            <Trans>Add to comparison</Trans>
            {draftCount > 0 && (
              <span className="text-xs text-slate-500 dark:text-slate-400">({draftCount})</span>
            )}
          </Button>
        )}
        <OpenRecipe file={recipeFile} onFile={onRecipeFile} onUse={onUseRecipe} formIds={formIds} />
        <Button variant="ghost" size="sm" onClick={() => setDescribing(true)}>
          <ScanText className="size-4" aria-hidden="true" />
          <Trans>Describe image</Trans>
        </Button>
      </div>
      {describeLoaded && (
        <Suspense fallback={null}>
          <DescribeImageDialog
            open={describing}
            onOpenChange={setDescribing}
            onUseAsPrompt={onUseAsPrompt}
            renderImageInput={(slot) => <MediaInput kind="image" {...slot} baseUrl={baseUrl} />}
          />
        </Suspense>
      )}
    </>
  );
}

/**
 * A file dropped on the form (not on one of its file fields) opens its recipe: the file shown, and the
 * form's drop zone (its root props go on the form's section).
 */
export function useRecipeDrop() {
  const [recipeFile, setRecipeFile] = useState<File | null>(null);
  const recipeDrop = useDropzone({
    multiple: false,
    noClick: true,
    noKeyboard: true,
    useFsAccessApi: false,
    onDrop: (files) => {
      if (files[0]) setRecipeFile(files[0]);
    },
  });
  return { recipeFile, setRecipeFile, recipeDrop };
}
