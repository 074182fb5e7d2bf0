import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import { QueryBox, type QueryChip } from './query-box';
import { suggestionsFor, type FieldHint } from './suggestions';

afterEach(cleanup);

const FIELDS: FieldHint[] = [
  { id: 'model', hint: 'the model' },
  { id: 'media', hint: 'image, video or audio' },
  { id: 'seed', hint: 'a seed' },
];
const VALUE_LISTS: Record<string, Array<{ value: string }>> = {
  model: [{ value: 'Aurora XL' }, { value: 'Pop Diffusion' }],
  media: [{ value: 'video' }],
};
const VALUES = (field: string) => VALUE_LISTS[field] ?? [];

/** A box whose chips are its words (the real parse is model/search's): enough to drive the component. */
function Harness({ initial = '' }: { initial?: string }) {
  const [text, setText] = useState(initial);
  const words = text.split(/\s+/).filter(Boolean);
  const chips: QueryChip[] = words.map((w) => ({
    label: w,
    problem: w.endsWith('>=') ? 'no value' : undefined,
  }));
  return (
    <>
      <QueryBox
        label="Search prompts"
        value={text}
        onChange={setText}
        chips={chips}
        onRemoveChip={(i) => setText(words.filter((_, j) => j !== i).join(' '))}
        suggest={(t) => suggestionsFor(t, FIELDS, VALUES)}
      />
      <output data-testid="text">{text}</output>
    </>
  );
}

it('suggests a field for a typed prefix, then its values, quoting a value with a space; Enter takes one', async () => {
  const user = userEvent.setup();
  render(<Harness />);
  const box = screen.getByRole('combobox', { name: 'Search prompts' });
  await user.type(box, 'fox mo');
  const list = screen.getByRole('listbox', { name: 'Suggestions' });
  expect(
    within(list)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['model:the model']);
  expect(box.getAttribute('aria-expanded')).toBe('true');
  await user.keyboard('{Enter}');
  expect(screen.getByTestId('text').textContent).toBe('fox model:');
  // The field waits for its value: the values show at once.
  expect(
    within(list)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['model:"Aurora XL"', 'model:"Pop Diffusion"']);
  await user.keyboard('{ArrowDown}{Enter}');
  expect(screen.getByTestId('text').textContent).toBe('fox model:"Pop Diffusion" ');
  expect(box.getAttribute('aria-expanded')).toBe('false');
});

it('Escape closes the suggestions without clearing the text, and a free word suggests nothing', async () => {
  const user = userEvent.setup();
  render(<Harness />);
  const box = screen.getByRole('combobox', { name: 'Search prompts' });
  await user.type(box, 'se');
  expect(box.getAttribute('aria-expanded')).toBe('true');
  await user.keyboard('{Escape}');
  expect(box.getAttribute('aria-expanded')).toBe('false');
  expect(screen.getByTestId('text').textContent).toBe('se');
  await user.clear(box);
  await user.type(box, 'harbour ');
  expect(box.getAttribute('aria-expanded')).toBe('false');
});

it('each term is a chip with its own remove button; a term with a problem says so', async () => {
  const user = userEvent.setup();
  render(<Harness initial="fox seed:42 rating>=" />);
  const chips = within(screen.getByRole('list', { name: 'Search terms' })).getAllByTestId('search-chip');
  expect(chips.map((c) => c.firstChild?.textContent)).toEqual(['fox', 'seed:42', 'rating>=']);
  expect(chips[2]!.dataset.problem).toBe('true');
  expect(chips[2]!.textContent).toContain('no value');
  await user.click(screen.getByRole('button', { name: 'Remove seed:42' }));
  expect(screen.getByTestId('text').textContent).toBe('fox rating>=');
});

it('a negated field keeps its minus in the suggestion', () => {
  expect(suggestionsFor('-med', FIELDS, VALUES).map((s) => s.insert)).toEqual(['-media:']);
  expect(suggestionsFor('-media:v', FIELDS, VALUES).map((s) => s.insert)).toEqual(['-media:video']);
});
