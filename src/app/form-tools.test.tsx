import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { Model } from '../../contract/catalog';
import type { PresetStore } from '../model/library/presets';
import type { ResolvedSelection } from '../model/selection';
import { fakeClient, renderWithApi } from '../test/catalog-test-utils';
import { FormTools } from './form-tools';

// The row of tools above the form keeps its buttons in place while the studio starts: "Save preset" and
// "Presets" before the presets' store is open, "Add to comparison" while the picked model is read from
// the catalog, each there and off until it can act, so the row does not move (a layout shift).

afterEach(cleanup);

const tools = (props: {
  presets?: PresetStore;
  current?: ResolvedSelection;
  pickedKind?: 'model' | 'tool';
}) => (
  <FormTools
    presets={props.presets}
    teamLibrary={undefined}
    current={props.current}
    pickedKind={props.pickedKind}
    request={null}
    onApplyPreset={() => undefined}
    onAddToComparison={() => undefined}
    draftCount={0}
    recipeFile={null}
    onRecipeFile={() => undefined}
    onUseRecipe={() => undefined}
    formIds={null}
    onUseAsPrompt={undefined}
  />
);
const button = (name: string) => screen.queryByRole('button', { name }) as HTMLButtonElement | null;
const names = () => screen.getAllByRole('button').map((b) => b.textContent);

it('draws every tool of a picked model from the first render, off until it can act, in the same order', async () => {
  const { client } = fakeClient();
  const model: Model = (await client.listModels('image', 'default')).items[0]!;
  const { rerender } = renderWithApi(tools({ pickedKind: 'model' }), client);
  const before = names();
  expect(button('Presets')?.disabled).toBe(true);
  expect(button('Save preset')?.disabled).toBe(true);
  expect(button('Add to comparison')?.disabled).toBe(true);

  rerender(
    tools({
      pickedKind: 'model',
      presets: {} as PresetStore,
      current: { kind: 'model', model, versionId: 'lumen-canvas-v2' },
    }),
  );
  expect(names()).toEqual(before);
  expect(button('Presets')?.disabled).toBe(false);
  expect(button('Add to comparison')?.disabled).toBe(false);
});

it('has no "Add to comparison" for an AI tool, resolved or not', () => {
  renderWithApi(tools({ pickedKind: 'tool' }), fakeClient().client);
  expect(button('Add to comparison')).toBeNull();
  expect(button('Describe image')).not.toBeNull();
});
