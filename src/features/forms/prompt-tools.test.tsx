import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import type { ResolvedSelection } from '../../model/selection';
import { ParamForm, type FormSnapshot } from './param-form';
import { PromptToolsContext, type PromptTools } from '../../components/prompt-tools';
import { BASE_URL, fixtureModel, fixtureTool } from '../../test/sandbox-catalog';

// The prompt field's tools (product-notes §3 "Prompt library"): ArrowUp in an empty prompt recalls the last
// prompt sent, and "Prompt library" hands a chosen prompt to the field; other fields have neither.

const client = new ApiClient({
  baseUrl: BASE_URL,
  apiKey: 'gm_live_0123456789abcdefghijklmnopqrstuv',
  fetch: vi.fn(async () => new Response('{}', { status: 500 })),
});

function renderWith(target: ResolvedSelection, tools: PromptTools | null) {
  const onChange = vi.fn<(s: FormSnapshot) => void>();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ApiProvider value={{ client, connectionId: 'conn-1', baseUrl: BASE_URL }}>
        <PromptToolsContext.Provider value={tools}>
          <ParamForm target={target} baseUrl={BASE_URL} onChange={onChange} />
        </PromptToolsContext.Provider>
      </ApiProvider>
    </QueryClientProvider>,
  );
  return onChange;
}

const lumen: ResolvedSelection = {
  kind: 'model',
  model: fixtureModel('lumen-canvas'),
  versionId: 'lumen-canvas-v2',
};

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('prompt tools', () => {
  it('ArrowUp in the empty prompt brings back the last prompt sent, and only when empty', () => {
    const tools: PromptTools = { last: () => 'a red fox', openLibrary: vi.fn() };
    renderWith(lumen, tools);
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    fireEvent.keyDown(prompt, { key: 'ArrowUp' });
    expect(prompt).toHaveProperty('value', 'a red fox');
    fireEvent.change(prompt, { target: { value: 'typed' } });
    fireEvent.keyDown(prompt, { key: 'ArrowUp' });
    expect(prompt).toHaveProperty('value', 'typed');
    // Other text fields do not recall prompts.
    const avoid = screen.getByRole('textbox', { name: 'Things to avoid' });
    fireEvent.keyDown(avoid, { key: 'ArrowUp' });
    expect(avoid).toHaveProperty('value', '');
  });

  it('"Prompt library" is offered on the prompt only, and puts the chosen prompt in it', () => {
    const openLibrary = vi.fn<PromptTools['openLibrary']>((onPick) => onPick('from the library'));
    const onChange = renderWith(lumen, { last: () => undefined, openLibrary });
    const buttons = screen.getAllByRole('button', { name: 'Prompt library' });
    expect(buttons).toHaveLength(1);
    fireEvent.click(buttons[0]!);
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveProperty('value', 'from the library');
    expect(onChange.mock.lastCall?.[0].request.params.prompt).toBe('from the library');
  });

  it("a tool's prompt param gets them too; without a provider there are none", () => {
    renderWith(
      { kind: 'tool', tool: fixtureTool('animate-photo') },
      { last: () => 'x', openLibrary: vi.fn() },
    );
    expect(screen.getAllByRole('button', { name: 'Prompt library' })).toHaveLength(1);
    cleanup();
    renderWith(lumen, null);
    expect(screen.queryByRole('button', { name: 'Prompt library' })).toBeNull();
  });
});
