import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-types';
import { pngTexts } from './png-recipe';
import { recipeOf } from './recipe';
import { readRecipe } from './file-recipe';
import {
  parseSheetRecipeJson,
  SHEET_KEYWORD,
  sheetRecipe,
  sheetWithRecipe,
  type SheetRecipe,
} from './sheet-recipe';

// A contact sheet's recipe, written into a real PNG (Pillow makes it) and read back by Pillow, an
// independent reader: every text chunk there, the JSON whole, the pixels decoded as before.

const dir = mkdtempSync(join(tmpdir(), 'sheet-recipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const python = (code: string, ...args: string[]) =>
  execFileSync(PYTHON, ['-c', code, ...args], { encoding: 'utf8' });

const entry = (taskId: string, prompt: string): HistoryEntry => ({
  taskId,
  connectionId: 'c',
  request: { interfaceId: 'lumen-canvas', versionId: 'lumen-canvas-v2', params: { prompt, seed: 7 } },
  meta: {
    title: 'Lumen Canvas',
    subtitle: 'v2',
    kind: 'model',
    mediaType: 'image',
    modelId: 'lumen-canvas',
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status: 'succeeded',
  outputs: [{ url: `https://cdn.example/${taskId}.png` }] as HistoryEntry['outputs'],
  error: null,
  creditsCharged: 4,
  createdAt: Date.UTC(2026, 10, 29, 9, 0, 0),
  completedAt: null,
  unseen: false,
});

describe('a contact sheet’s recipe', () => {
  const recipe: SheetRecipe = sheetRecipe({ name: 'Leuchttürme 灯台', category: 'image/default' }, [
    {
      prompt: 'a lighthouse at dusk',
      cells: [
        {
          model: 'lumen-canvas',
          modelVersion: 'lumen-canvas-v2',
          entry: entry('t1', 'a lighthouse at dusk'),
        },
        { model: 'aurora-xl', modelVersion: 'aurora-xl-1', entry: null },
      ],
    },
  ]);

  it('holds each cell’s model and the recipe of the output drawn (none for a cell without one)', () => {
    expect(recipe.rows[0]!.cells.map((c) => c.recipe)).toEqual([
      recipeOf(entry('t1', 'a lighthouse at dusk'), 0),
      null,
    ]);
    expect(JSON.stringify(recipe)).not.toMatch(/key|Bearer/i);
  });

  it('is written into a PNG Pillow made, read back by Pillow with the pixels unchanged', async () => {
    const source = join(dir, 'sheet.png');
    python(
      'import sys; from PIL import Image; im = Image.new("RGB", (4, 3)); im.putdata([(i * 20, 255 - i * 20, 128) for i in range(12)]); im.save(sys.argv[1])',
      source,
    );
    const written = await sheetWithRecipe(new Blob([readFileSync(source)], { type: 'image/png' }), recipe);
    const bytes = new Uint8Array(await written.arrayBuffer());
    const out = join(dir, 'with-recipe.png');
    writeFileSync(out, bytes);
    // Our own reader and Pillow's agree.
    expect(JSON.parse(pngTexts(bytes).get(SHEET_KEYWORD)!)).toEqual(recipe);
    const read = JSON.parse(
      python(
        'import sys, json; from PIL import Image\nres = []\nfor p in sys.argv[1:]:\n  im = Image.open(p); im.load(); res.append({"text": dict(im.text), "pixels": list(im.getdata())})\nprint(json.dumps(res))',
        source,
        out,
      ),
    ) as Array<{ text: Record<string, string>; pixels: number[][] }>;
    const [before, after] = read as [(typeof read)[0], (typeof read)[0]];
    expect(after.pixels).toEqual(before.pixels);
    expect(after.text['Title']).toBe('Leuchttürme 灯台');
    expect(after.text['Software']).toBe('Media Studio 0.1.0');
    expect(after.text['Description']).toBe('Contact sheet: 2 models x 1 prompt');
    expect(JSON.parse(after.text[SHEET_KEYWORD]!)).toEqual(recipe);
  });

  it('is what "Open recipe" reads from the sheet: every row, every cell and its recipe', async () => {
    const source = join(dir, 'sheet-open.png');
    python('import sys; from PIL import Image; Image.new("RGB", (2, 2)).save(sys.argv[1])', source);
    const written = await sheetWithRecipe(new Blob([readFileSync(source)], { type: 'image/png' }), recipe);
    expect(readRecipe(new Uint8Array(await written.arrayBuffer()))).toEqual({ kind: 'sheet', sheet: recipe });
  });

  it('is refused when its text is not a sheet (not JSON, another format, a row or cell malformed)', () => {
    const good = JSON.stringify(recipe);
    expect(parseSheetRecipeJson(good)).toEqual(recipe);
    expect(parseSheetRecipeJson('not json')).toBeNull();
    expect(parseSheetRecipeJson(JSON.stringify({ ...recipe, format: 'other' }))).toBeNull();
    expect(parseSheetRecipeJson(JSON.stringify({ ...recipe, rows: [{ cells: [] }] }))).toBeNull();
    expect(
      parseSheetRecipeJson(JSON.stringify({ ...recipe, rows: [{ prompt: 'p', cells: [{ recipe: null }] }] })),
    ).toBeNull();
    // A cell whose recipe lacks the format mark is listed without one (nothing to use), not trusted.
    const forged = parseSheetRecipeJson(
      JSON.stringify({ ...recipe, rows: [{ prompt: 'p', cells: [{ model: 'm', recipe: { params: {} } }] }] }),
    );
    expect(forged?.rows[0]?.cells[0]?.recipe).toBeNull();
  });
});
