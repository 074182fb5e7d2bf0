import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedRecipe } from '../../model/recipes/file-recipe';
import { textChunk } from '../../model/recipes/png-chunks';
import { recipeOf } from '../../model/recipes/recipe';
import { sheetRecipe, sheetWithRecipe } from '../../model/recipes/sheet-recipe';
import { makeEntry } from '../../test/gallery-test-utils';
import { OpenRecipe, type RecipeUse } from './open-recipe';
import { tinyPng } from '../../test/tiny-png';

// "Open recipe": a downloaded file's recipe shown, and "Use this recipe" giving the form what made it;
// another tool's PNG parameters mapped onto the open form as far as they go.

afterEach(cleanup);

const fileOf = (bytes: Uint8Array, name = 'picture.png') =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type: 'image/png' });

function Harness({ formIds, onUse }: { formIds: ReadonlySet<string> | null; onUse: (u: RecipeUse) => void }) {
  const [file, setFile] = useState<File | null>(null);
  return <OpenRecipe file={file} onFile={setFile} onUse={onUse} formIds={formIds} />;
}

async function openFile(file: File, formIds: ReadonlySet<string> | null = null) {
  const onUse = vi.fn<(u: RecipeUse) => void>();
  render(<Harness formIds={formIds} onUse={onUse} />);
  const user = userEvent.setup();
  await user.upload(screen.getByTestId('open-recipe-input'), file);
  const dialog = await screen.findByRole('dialog', { name: 'Recipe' });
  return { dialog, onUse, user };
}

describe('Open recipe', () => {
  it('shows what made a downloaded PNG, and "Use this recipe" gives its model, version and every param', async () => {
    const entry = makeEntry('task_1', {
      params: { prompt: 'a lighthouse at dusk', seed: 42, aspect_ratio: '16:9', steps: 30 },
    });
    const { bytes } = embedRecipe(tinyPng(), 'image/png', recipeOf(entry, 0));
    const { dialog, onUse, user } = await openFile(fileOf(bytes));
    expect(within(dialog).getByText('picture.png')).toBeTruthy();
    const fields = within(dialog).getByTestId('recipe-fields');
    expect(fields.textContent).toContain('Lumen Canvas');
    expect(fields.textContent).toContain('lumen-canvas, lumen-2');
    expect(fields.textContent).toContain('a lighthouse at dusk');
    expect(fields.textContent).toContain('16:9');
    await user.click(within(dialog).getByRole('button', { name: 'Use this recipe' }));
    expect(onUse).toHaveBeenCalledWith({
      kind: 'recipe',
      selection: { kind: 'model', modelId: 'lumen-canvas', versionId: 'lumen-2' },
      params: { prompt: 'a lighthouse at dusk', seed: 42, aspect_ratio: '16:9', steps: 30 },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('an input that was a private upload is called out as maybe expired, and goes back into the form as its URL', async () => {
    const upload = 'https://cdn.example.test/cdn/uploads/u1/face.png';
    const entry = makeEntry('task_2', { params: { prompt: 'the same face, smiling', image: upload } });
    const { bytes } = embedRecipe(tinyPng(), 'image/png', recipeOf(entry, 0));
    const { dialog, onUse, user } = await openFile(fileOf(bytes));
    expect(within(dialog).getByText('Some inputs may have expired')).toBeTruthy();
    expect(dialog.textContent).toContain('image: files uploaded for this task');
    await user.click(within(dialog).getByRole('button', { name: 'Use this recipe' }));
    expect(onUse.mock.calls[0]![0].params).toEqual({ prompt: 'the same face, smiling', image: upload });
  });

  it('a tool’s recipe selects the tool, not a model', async () => {
    const entry = {
      ...makeEntry('task_3', {
        meta: { kind: 'tool', title: 'Upscale', modelId: undefined, versionId: undefined },
      }),
      request: { aiTool: 'upscale', params: { image: 'https://cdn.example.test/out/a.png' } },
    };
    const { bytes } = embedRecipe(tinyPng(), 'image/png', recipeOf(entry, 0));
    const { dialog, onUse, user } = await openFile(fileOf(bytes));
    await user.click(within(dialog).getByRole('button', { name: 'Use this recipe' }));
    expect(onUse.mock.calls[0]![0]).toMatchObject({
      kind: 'recipe',
      selection: { kind: 'tool', slug: 'upscale' },
    });
  });

  it('another tool’s parameters fill the open form’s prompt, negative prompt and seed, as far as it has them', async () => {
    const text =
      'a cat on a sofa\nNegative prompt: blurry\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 1234, Size: 512x512';
    const png = tinyPng(textChunk('parameters', text));
    const { dialog, onUse, user } = await openFile(fileOf(png), new Set(['prompt', 'seed', 'aspect_ratio']));
    expect(within(dialog).getByTestId('recipe-fields').textContent).toContain('Euler a');
    await user.click(within(dialog).getByRole('button', { name: 'Use this recipe' }));
    expect(onUse).toHaveBeenCalledWith({
      kind: 'parameters',
      params: { prompt: 'a cat on a sofa', seed: 1234 },
    });
  });

  it('with no form open, another tool’s parameters cannot be used yet, and it says why', async () => {
    const png = tinyPng(textChunk('parameters', 'a cat\nSteps: 20'));
    const { dialog } = await openFile(fileOf(png));
    expect(within(dialog).getByText('Pick a model first: its form takes what maps.')).toBeTruthy();
    expect(
      (within(dialog).getByRole('button', { name: 'Use this recipe' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('a file without a recipe says so', async () => {
    const { dialog } = await openFile(fileOf(tinyPng()));
    expect(within(dialog).getByText('This file carries no recipe.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Use this recipe' })).toBeNull();
  });

  it('what the file says is shown as text: markup in it never becomes elements', async () => {
    const entry = makeEntry('task_4', {
      params: { prompt: '<img src=x onerror="window.__pwned=1"><b>bold</b>' },
    });
    const { bytes } = embedRecipe(tinyPng(), 'image/png', recipeOf(entry, 0));
    const { dialog } = await openFile(fileOf(bytes));
    expect(dialog.textContent).toContain('<img src=x onerror="window.__pwned=1"><b>bold</b>');
    expect(dialog.querySelector('img, b')).toBeNull();
  });

  it('a contact sheet lists its pictures by prompt and model, and uses the recipe of the one chosen', async () => {
    const lumen = makeEntry('task_5', { params: { prompt: 'a lighthouse at dusk', seed: 1 } });
    const aurora = {
      ...makeEntry('task_6', {
        params: { prompt: 'a lighthouse at dusk', seed: 2 },
        meta: { title: 'Aurora XL', modelId: 'northwind-aurora', versionId: 'northwind-aurora-1' },
      }),
      request: {
        interfaceId: 'northwind-aurora',
        versionId: 'northwind-aurora-1',
        params: { prompt: 'a lighthouse at dusk', seed: 2 },
      },
    };
    const sheet = sheetRecipe({ name: 'Lighthouses', category: 'image/default' }, [
      {
        prompt: 'a lighthouse at dusk',
        cells: [
          { model: 'Lumen Canvas · v2', modelVersion: 'lumen-2', entry: lumen },
          { model: 'Aurora XL · 1.0', modelVersion: 'northwind-aurora-1', entry: aurora },
          { model: 'Pop Diffusion · Pop 1', modelVersion: 'pixelmoss-pop-1', entry: null },
        ],
      },
    ]);
    const png = await sheetWithRecipe(new Blob([tinyPng() as Uint8Array<ArrayBuffer>]), sheet);
    const { dialog, onUse, user } = await openFile(
      fileOf(new Uint8Array(await png.arrayBuffer()), 'sheet.png'),
    );
    const row = within(dialog).getByRole('group', { name: 'a lighthouse at dusk' });
    const first = within(row).getByRole('radio', { name: 'Lumen Canvas lumen-2' }) as HTMLInputElement;
    expect(first.checked).toBe(true);
    expect(
      (within(row).getByRole('radio', { name: 'Pop Diffusion · Pop 1 (no picture)' }) as HTMLInputElement)
        .disabled,
    ).toBe(true);
    await user.click(within(row).getByRole('radio', { name: 'Aurora XL northwind-aurora-1' }));
    expect(within(dialog).getByTestId('recipe-fields').textContent).toContain('northwind-aurora-1');
    await user.click(within(dialog).getByRole('button', { name: 'Use this recipe' }));
    expect(onUse).toHaveBeenCalledWith({
      kind: 'recipe',
      selection: { kind: 'model', modelId: 'northwind-aurora', versionId: 'northwind-aurora-1' },
      params: { prompt: 'a lighthouse at dusk', seed: 2 },
    });
  });
});
