/* eslint-disable lingui/no-unlocalized-strings -- PNG's own keywords (Title, Software, Description) and the recipe's format name, written into the file as the format spells them. */
import type { HistoryEntry } from '../history/history-types';
import { concatBytes } from './embed';
import { textChunk } from './png-chunks';
import { pngTextEmbedder } from './png-recipe';
import { isRecipe, recipeOf, STUDIO, type Recipe } from './recipe';

// A contact sheet's recipe (product-notes "Recipes, lineage and finding things": one output, a ZIP, a
// contact sheet): the sheet is one PNG the studio draws, so what made each of its pictures goes into it as
// text chunks before IEND: PNG's own Title and Software, a Description a person reads ("8 models x 20
// prompts"), and the whole of it as JSON in an iTXt chunk `media-studio:contact-sheet`: the board's name
// and category, and per row its prompt and per cell the model and the recipe of the output drawn (null
// where the cell has none). A blind sheet is never given one: its models' names would unblind it.

/** The iTXt keyword of a sheet's recipe ("Open recipe" reads it back by it). */
export const SHEET_KEYWORD = 'media-studio:contact-sheet';

export interface SheetRecipe {
  format: 'media-studio-contact-sheet';
  version: 1;
  studio: { name: string; version: string };
  board: { name: string; category: string };
  rows: Array<{
    prompt: string;
    cells: Array<{ model: string; modelVersion: string; recipe: Recipe | null }>;
  }>;
}

export interface SheetCellSource {
  model: string;
  modelVersion: string;
  /** The cell's task when it has an output (its first output is the one drawn). */
  entry: HistoryEntry | null;
}

export function sheetRecipe(
  board: { name: string; category: string },
  rows: ReadonlyArray<{ prompt: string; cells: readonly SheetCellSource[] }>,
): SheetRecipe {
  return {
    format: 'media-studio-contact-sheet',
    version: 1,
    studio: { ...STUDIO },
    board: { ...board },
    rows: rows.map((row) => ({
      prompt: row.prompt,
      cells: row.cells.map((c) => ({
        model: c.model,
        modelVersion: c.modelVersion,
        recipe: c.entry && c.entry.outputs.length > 0 ? recipeOf(c.entry, 0) : null,
      })),
    })),
  };
}

/** The sheet's PNG with its recipe written in (the pixels' chunks untouched). */
export async function sheetWithRecipe(png: Blob, recipe: SheetRecipe): Promise<Blob> {
  const columns = recipe.rows[0]?.cells.length ?? 0;
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const embedder = pngTextEmbedder([
    textChunk('Title', recipe.board.name, true),
    textChunk('Software', `${recipe.studio.name} ${recipe.studio.version}`),
    textChunk(
      'Description',
      `Contact sheet: ${count(columns, 'model')} x ${count(recipe.rows.length, 'prompt')}`,
    ),
    textChunk(SHEET_KEYWORD, JSON.stringify(recipe), true),
  ]);
  const head = embedder.push(new Uint8Array(await png.arrayBuffer()));
  const { chunks, outcome } = embedder.finish();
  if (outcome !== 'written') return png;
  return new Blob([concatBytes([...head, ...chunks]) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
}

const isText = (v: unknown): v is string => typeof v === 'string';

/**
 * A sheet's recipe read back from its PNG (the iTXt chunk `SHEET_KEYWORD`), or null when the text is not
 * one. Checked for its shape (rows of cells, each with its model and a recipe or null) so "Open recipe"
 * can list it; what a cell's recipe says is untrusted and goes through the form's checks as any other.
 */
export function parseSheetRecipeJson(text: string): SheetRecipe | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const sheet = value as Partial<Record<keyof SheetRecipe, unknown>>;
  if (sheet.format !== 'media-studio-contact-sheet' || !Array.isArray(sheet.rows)) return null;
  const board = sheet.board as { name?: unknown; category?: unknown } | undefined;
  const rows: SheetRecipe['rows'] = [];
  for (const row of sheet.rows as unknown[]) {
    const r = row as { prompt?: unknown; cells?: unknown } | null;
    if (!r || !isText(r.prompt) || !Array.isArray(r.cells)) return null;
    const cells: SheetRecipe['rows'][number]['cells'] = [];
    for (const cell of r.cells as unknown[]) {
      const c = cell as { model?: unknown; modelVersion?: unknown; recipe?: unknown } | null;
      if (!c || !isText(c.model)) return null;
      cells.push({
        model: c.model,
        modelVersion: isText(c.modelVersion) ? c.modelVersion : '',
        recipe: isRecipe(c.recipe) ? c.recipe : null,
      });
    }
    rows.push({ prompt: r.prompt, cells });
  }
  return {
    format: 'media-studio-contact-sheet',
    version: 1,
    studio: { ...STUDIO },
    board: {
      name: isText(board?.name) ? board.name : '',
      category: isText(board?.category) ? board.category : '',
    },
    rows,
  };
}
