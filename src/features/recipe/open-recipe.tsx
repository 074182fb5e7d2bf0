import { Trans, useLingui } from '@lingui/react/macro';
import { FileSearch } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ParamValue } from '../../../contract/task';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { readRecipe } from '../../model/recipes/file-recipe';
import type { ForeignParameters, Recipe } from '../../model/recipes/recipe';
import type { SheetRecipe } from '../../model/recipes/sheet-recipe';
import { selectionOfRequest, type Selection } from '../../model/selection';

// "Open recipe" (docs/using.md): a file the studio downloaded carries how it was made (model, version,
// every param); opened here, or dropped on Create, it is shown, and "Use this recipe" reopens the form
// with it. Another tool's PNG `parameters` text maps onto the open form as far as it can (prompt,
// negative prompt, seed, steps). A contact sheet carries the recipe of each of its pictures: its cells
// are listed by prompt and model, and the one chosen is shown and used. What the file says is untrusted text: shown as text, never as markup,
// and a form it fills is checked as any other before it is sent.

/** What "Use this recipe" asks of the form. */
export type RecipeUse =
  /** Ours: the model, tool or template selected, its form filled with the params. */
  | { kind: 'recipe'; selection: Selection; params: Record<string, ParamValue> }
  /** Another tool's: the open form's params of these ids set, where it has them. */
  | { kind: 'parameters'; params: Record<string, ParamValue> };

type Read =
  | { kind: 'recipe'; name: string; recipe: Recipe }
  | { kind: 'sheet'; name: string; sheet: SheetRecipe }
  | { kind: 'parameters'; name: string; parameters: ForeignParameters }
  | { kind: 'none'; name: string };

/** A recipe value as the form holds it: a private upload's URL, plain (it is called out as maybe expired). */
function paramValue(value: Recipe['params'][string]): ParamValue {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? v.url : v)) as ParamValue;
  return typeof value === 'object' ? value.url : value;
}

/** The ids of the params a recipe's private uploads are in (their links may have expired). */
const expiringParams = (recipe: Recipe): string[] =>
  Object.entries(recipe.params)
    .filter(([, v]) => (Array.isArray(v) ? v : [v]).some((x) => typeof x === 'object'))
    .map(([id]) => id);

/** What another tool's parameters give the open form, by the ids forms use for them. */
function foreignParams(p: ForeignParameters, formIds: ReadonlySet<string>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  const put = (ids: readonly string[], value: ParamValue | undefined) => {
    const id = ids.find((i) => formIds.has(i));
    if (id !== undefined && value !== undefined && value !== '') out[id] = value;
  };
  put(['prompt', 'text'], p.prompt);
  put(['negative_prompt', 'negativePrompt'], p.negativePrompt);
  put(['seed'], p.seed);
  put(['steps', 'num_inference_steps'], p.steps);
  return out;
}

/** Reads a file's recipe (the whole file: its metadata may be anywhere in it). */
async function readFileRecipe(file: File): Promise<Read> {
  let found: ReturnType<typeof readRecipe> = null;
  try {
    found = readRecipe(new Uint8Array(await file.arrayBuffer()));
  } catch {
    found = null;
  }
  if (found?.kind === 'recipe') return { kind: 'recipe', name: file.name, recipe: found.recipe };
  if (found?.kind === 'sheet') return { kind: 'sheet', name: file.name, sheet: found.sheet };
  if (found?.kind === 'parameters')
    return { kind: 'parameters', name: file.name, parameters: found.parameters };
  return { kind: 'none', name: file.name };
}

/** What a recipe of ours selects: its tool, template or model (null when it names none). */
const selectionOfRecipe = (recipe: Recipe): Selection | null =>
  selectionOfRequest({
    interfaceId: recipe.aiTool || recipe.template ? undefined : (recipe.model ?? undefined),
    versionId: recipe.modelVersion ?? undefined,
    aiTool: recipe.aiTool ?? undefined,
    template: recipe.template ?? undefined,
  });

/** "Use this recipe" for a recipe of ours; null when it names no model, tool or template. */
function recipeUseOf(recipe: Recipe): RecipeUse | null {
  const selection = selectionOfRecipe(recipe);
  if (!selection) return null;
  const params = Object.fromEntries(Object.entries(recipe.params).map(([id, v]) => [id, paramValue(v)]));
  return { kind: 'recipe', selection, params };
}

/** A sheet's cells that carry a recipe, by row and column: `r:c`. */
const cellId = (row: number, column: number) => `${row}:${column}`;

function valueText(value: Recipe['params'][string]): string {
  const shown = paramValue(value);
  return Array.isArray(shown) ? shown.join(', ') : String(shown);
}

/** What made one output: the model or tool, when, every param, and what cannot be relied on. */
function RecipeDetails({ recipe }: { recipe: Recipe }) {
  const { t, i18n } = useLingui();
  const expiring = expiringParams(recipe);
  const inputs = expiring.join(', ');
  const selection = selectionOfRecipe(recipe);
  return (
    <div className="flex flex-col gap-4">
      <dl
        className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm"
        data-testid="recipe-fields"
      >
        <dt className="text-slate-500 dark:text-slate-400">
          <Trans>Made with</Trans>
        </dt>
        <dd className="break-words">
          {recipe.title}{' '}
          <span className="text-slate-500 dark:text-slate-400">
            ({recipe.model ?? recipe.aiTool ?? recipe.template}
            {recipe.modelVersion ? `, ${recipe.modelVersion}` : ''})
          </span>
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">
          <Trans>Made</Trans>
        </dt>
        <dd>{i18n.date(new Date(recipe.createdAt), { dateStyle: 'medium', timeStyle: 'short' })}</dd>
        {Object.entries(recipe.params).map(([id, value]) => (
          <div key={id} className="contents">
            <dt className="pt-0.5 font-mono text-xs text-slate-500 dark:text-slate-400">{id}</dt>
            <dd className="break-words whitespace-pre-wrap">{valueText(value)}</dd>
          </div>
        ))}
      </dl>
      {expiring.length > 0 && (
        <Alert tone="warning" live={false} title={t`Some inputs may have expired`}>
          <Trans>
            {inputs}: files uploaded for this task, whose links the service keeps for a while only. If the
            form cannot use one, add the file again.
          </Trans>
        </Alert>
      )}
      {!selection && (
        <Alert tone="warning" live={false} title={t`This recipe names no model, tool or template.`} />
      )}
    </div>
  );
}

/**
 * The "Open recipe" button and its dialog, showing `file` (chosen here, or dropped on Create: the owner
 * keeps it, `onFile` changes it; null closes the dialog). `formIds` are the open form's param ids
 * (another tool's parameters fill only those), null with no form open.
 */
export function OpenRecipe({
  file,
  onFile,
  onUse,
  formIds,
}: {
  file: File | null;
  onFile: (file: File | null) => void;
  onUse: (use: RecipeUse) => void;
  formIds: ReadonlySet<string> | null;
}) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [done, setDone] = useState<{ file: File; read: Read } | null>(null);
  useEffect(() => {
    if (!file) return;
    let live = true;
    void readFileRecipe(file).then((r) => live && setDone({ file, read: r }));
    return () => {
      live = false;
    };
  }, [file]);
  const read = file && done?.file === file ? done.read : null;
  const close = () => onFile(null);
  const use = (u: RecipeUse) => {
    onUse(u);
    close();
  };
  // A sheet's cell chosen (`r:c`); the first with a recipe until one is.
  const [cell, setCell] = useState<{ file: File; id: string } | null>(null);
  const sheetCells =
    read?.kind === 'sheet'
      ? read.sheet.rows.flatMap((row, r) =>
          row.cells.flatMap((c, column) => (c.recipe ? [{ id: cellId(r, column), recipe: c.recipe }] : [])),
        )
      : [];
  const chosenCell = sheetCells.find((c) => cell?.file === file && c.id === cell.id) ?? sheetCells[0];
  const boardName = read?.kind === 'sheet' ? read.sheet.board.name : '';
  const recipe = read?.kind === 'recipe' ? read.recipe : (chosenCell?.recipe ?? null);
  const mapped = read?.kind === 'parameters' && formIds ? foreignParams(read.parameters, formIds) : null;
  /** What "Use this recipe" gives the form; null when it cannot be used (the reason is shown). */
  const usable: RecipeUse | null = recipe
    ? recipeUseOf(recipe)
    : mapped && Object.keys(mapped).length > 0
      ? { kind: 'parameters', params: mapped }
      : null;

  return (
    <>
      <input
        ref={input}
        type="file"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="open-recipe-input"
        accept="image/png,image/jpeg,image/webp,video/mp4,video/quicktime,audio/mpeg,audio/wav"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (chosen) onFile(chosen);
        }}
      />
      <Button variant="ghost" size="sm" onClick={() => input.current?.click()}>
        <FileSearch className="size-4" aria-hidden="true" />
        <Trans>Open recipe</Trans>
      </Button>
      <Dialog
        open={read !== null}
        onOpenChange={(o) => !o && close()}
        title={t`Recipe`}
        description={read?.name}
      >
        {read?.kind === 'none' && (
          <Alert tone="info" live={false} title={t`This file carries no recipe.`}>
            <Trans>
              Files the studio downloads carry how they were made (PNG, JPEG, WebP, MP4, MP3 and WAV); this
              one has none the studio can read.
            </Trans>
          </Alert>
        )}
        {read?.kind === 'recipe' && <RecipeDetails recipe={read.recipe} />}
        {read?.kind === 'sheet' && (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              <Trans>A contact sheet of {boardName}: choose the picture whose recipe to use.</Trans>
            </p>
            <div className="flex max-h-64 flex-col gap-3 overflow-y-auto" data-testid="sheet-cells">
              {read.sheet.rows.map((row, r) => (
                <fieldset key={r} className="min-w-0">
                  <legend className="mb-1 text-sm font-medium break-words">{row.prompt}</legend>
                  <div className="flex flex-wrap gap-x-4 gap-y-1">
                    {row.cells.map((c, column) => {
                      const id = cellId(r, column);
                      const model = c.model;
                      return (
                        <label
                          key={id}
                          className={`flex items-center gap-1.5 text-sm ${c.recipe ? '' : 'text-slate-500 dark:text-slate-400'}`}
                        >
                          <input
                            type="radio"
                            name="sheet-cell"
                            value={id}
                            disabled={!c.recipe}
                            checked={chosenCell?.id === id}
                            onChange={() => file && setCell({ file, id })}
                          />
                          {c.recipe ? (
                            <span>
                              {c.recipe.title || model}{' '}
                              <span className="text-xs text-slate-500 dark:text-slate-400">
                                {c.recipe.modelVersion ?? ''}
                              </span>
                            </span>
                          ) : (
                            t`${model} (no picture)`
                          )}
                        </label>
                      );
                    })}
                  </div>
                </fieldset>
              ))}
            </div>
            {chosenCell ? (
              <RecipeDetails recipe={chosenCell.recipe} />
            ) : (
              <Alert tone="info" live={false} title={t`No picture of this sheet has a recipe.`} />
            )}
          </div>
        )}
        {read?.kind === 'parameters' && (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              <Trans>
                Made with another tool: what maps onto the open form (prompt, negative prompt, seed, steps)
                can be used.
              </Trans>
            </p>
            <dl
              className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm"
              data-testid="recipe-fields"
            >
              <dt className="text-slate-500 dark:text-slate-400">
                <Trans>Prompt</Trans>
              </dt>
              <dd className="break-words whitespace-pre-wrap">{read.parameters.prompt}</dd>
              {read.parameters.negativePrompt !== undefined && (
                <>
                  <dt className="text-slate-500 dark:text-slate-400">
                    <Trans>Negative prompt</Trans>
                  </dt>
                  <dd className="break-words whitespace-pre-wrap">{read.parameters.negativePrompt}</dd>
                </>
              )}
              {Object.entries(read.parameters.settings).map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="text-slate-500 dark:text-slate-400">{name}</dt>
                  <dd className="break-words">{value}</dd>
                </div>
              ))}
            </dl>
            {!formIds && (
              <Alert tone="info" live={false} title={t`Pick a model first: its form takes what maps.`} />
            )}
          </div>
        )}
        {read && read.kind !== 'none' && (
          <div className="mt-4 flex flex-wrap gap-2">
            <Button variant="primary" disabled={!usable} onClick={() => usable && use(usable)}>
              <Trans>Use this recipe</Trans>
            </Button>
            <Button onClick={close}>
              <Trans>Close</Trans>
            </Button>
          </div>
        )}
      </Dialog>
    </>
  );
}
