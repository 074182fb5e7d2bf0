import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../contract/me';
import { fakeClient, renderWithApi } from '../test/catalog-test-utils';
import { Workspace, type WorkspaceActions } from './workspace';

// No long task on a model switch: the workspace renders the form of a newly picked model as a transition (a
// deferred copy of the selection and its resolved target). The selection, its key and its target are deferred
// as one value, so the form on screen, and the draft it keeps, always belong to the same model.

const me: Me = {
  id: 'user-1',
  email: 'ada@example.test',
  credits: { balance: 5000, currency: 'credits' },
} as unknown as Me;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});
beforeEach(() => {
  window.history.replaceState(null, '', '/?model=lumen-canvas&category=image/default');
});

const promptOf = (name: string) =>
  screen
    .queryByRole('form', { name })
    ?.querySelector<HTMLTextAreaElement | HTMLInputElement>('textarea, input[type="text"]');

describe('Workspace: the form follows the selection as a transition', () => {
  it('never shows, nor saves, a draft under another model, at any commit while switching', async () => {
    const fake = fakeClient();
    const drafts: Array<[key: string, value: string]> = [];
    const setItem = Storage.prototype.setItem;
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key, value) {
      drafts.push([key, value]);
      setItem.call(this, key, value);
    });
    // After every commit: which card is current, and which form, holding what.
    const seen: string[] = [];
    let deferred = 0;
    const check = () => {
      const current = document.querySelector('nav [aria-current="true"]')?.textContent ?? '';
      for (const name of ['Aurora XL', 'Lumen Canvas']) {
        const prompt = promptOf(name);
        if (!prompt) continue;
        seen.push(`${name}: ${prompt.value}`);
        // The catalog already on the new model, the form still on the one before: the transition.
        if (current && !current.includes(name)) deferred++;
      }
    };
    const user = userEvent.setup();
    renderWithApi(
      <Profiler id="workspace" onRender={check}>
        <Workspace
          me={me}
          runner={null}
          galleryStores={null}
          actions={createRef<WorkspaceActions>()}
          onAddToComparison={() => {}}
          draftCount={0}
        />
      </Profiler>,
      fake.client,
    );

    const lumen = await screen.findByRole('form', { name: 'Lumen Canvas' });
    expect(lumen).toBeTruthy();
    await user.type(promptOf('Lumen Canvas')!, 'a paper boat');

    // Aurora XL picked, then at once back to Lumen Canvas, then Aurora XL again.
    const card = (name: string) =>
      screen.getByText(name, { exact: true, selector: 'nav *' }).closest('button')!;
    await user.click(card('Aurora XL'));
    await user.click(card('Lumen Canvas'));
    await user.click(card('Aurora XL'));
    await screen.findByRole('form', { name: 'Aurora XL' });
    expect(promptOf('Aurora XL')!.value).toBe('');
    await user.type(promptOf('Aurora XL')!, 'a fox');

    await user.click(card('Lumen Canvas'));
    await waitFor(() => expect(promptOf('Lumen Canvas')?.value).toBe('a paper boat'));
    await user.click(card('Aurora XL'));
    await waitFor(() => expect(promptOf('Aurora XL')?.value).toBe('a fox'));

    expect(seen.length).toBeGreaterThan(0);
    // The form did follow the catalog a commit later (the deferral under test), and at no commit did
    // a form show the other model's text, nor was a draft saved under the other model.
    expect(deferred).toBeGreaterThan(0);
    expect(seen.filter((s) => s.startsWith('Aurora XL:') && s.includes('boat'))).toEqual([]);
    expect(seen.filter((s) => s.startsWith('Lumen Canvas:') && s.includes('fox'))).toEqual([]);
    const draftsOf = (id: string) =>
      drafts.filter(([key]) => key === `media-studio:draft:model:${id}`).map(([, value]) => value);
    expect(draftsOf('northwind-aurora').some((v) => v.includes('boat'))).toBe(false);
    expect(draftsOf('lumen-canvas').some((v) => v.includes('fox'))).toBe(false);
    expect(draftsOf('lumen-canvas').some((v) => v.includes('a paper boat'))).toBe(true);
  });
});
