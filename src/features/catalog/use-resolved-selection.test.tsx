import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { Selection } from '../../model/selection';
import { createWrapper, fakeClient } from '../../test/catalog-test-utils';
import { useResolvedSelection } from './use-resolved-selection';

afterEach(() => {
  vi.restoreAllMocks();
});

function resolve(selection: Selection | null, fake = fakeClient()) {
  const hook = renderHook(({ s }) => useResolvedSelection(s), {
    initialProps: { s: selection },
    wrapper: createWrapper(fake.client),
  });
  return { ...hook, fake };
}

describe('useResolvedSelection', () => {
  it('is idle with nothing selected and asks nothing', () => {
    const { result, fake } = resolve(null);
    expect(result.current).toEqual({ status: 'idle' });
    expect(fake.listModels).not.toHaveBeenCalled();
    expect(fake.getAiTool).not.toHaveBeenCalled();
    expect(fake.getTemplate).not.toHaveBeenCalled();
  });

  it('finds a model without a category by scanning the categories, falling back to its first version', async () => {
    const { result, fake } = resolve({
      kind: 'model',
      modelId: 'echoform-sync',
      versionId: 'no-such-version',
    });
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    const resolved = result.current.resolved;
    expect(resolved?.kind).toBe('model');
    if (resolved?.kind !== 'model') return;
    expect(resolved.model.name).toBe('LipSync');
    expect(resolved.versionId).toBe('echoform-sync-1');
    expect(fake.listModels).toHaveBeenCalledTimes(13);
  });

  it('finds a model of the first category, linked without one, with that one request', async () => {
    const { result, fake } = resolve({
      kind: 'model',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
    });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.resolved).toMatchObject({ kind: 'model', versionId: 'lumen-canvas-v3' });
    expect(fake.listModels).toHaveBeenCalledTimes(1);
    expect(fake.listModels).toHaveBeenCalledWith('image', 'default', expect.anything());
  });

  it('scans the other categories when the first one fails, and finds the model there', async () => {
    const fake = fakeClient();
    const answer = fake.listModels.getMockImplementation()!;
    fake.listModels.mockImplementation(async (type, subType, ...rest) => {
      if (type === 'image' && subType === 'default')
        throw new ApiError({ status: 500, code: 'server_error', type: 'api_error' });
      return answer(type, subType, ...rest);
    });
    const { result } = resolve({ kind: 'model', modelId: 'echoform-sync' }, fake);
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.resolved).toMatchObject({ kind: 'model', versionId: 'echoform-sync-1' });
    expect(fake.listModels).toHaveBeenCalledTimes(13);
  });

  it('looks only in the category given, and keeps a version that exists', async () => {
    const { result, fake } = resolve({
      kind: 'model',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
      category: 'image/default',
    });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.resolved).toMatchObject({ kind: 'model', versionId: 'lumen-canvas-v3' });
    expect(fake.listModels).toHaveBeenCalledTimes(1);
    expect(fake.listModels).toHaveBeenCalledWith('image', 'default', expect.anything());
  });

  it('picks the first version when none is given', async () => {
    const { result } = resolve({ kind: 'model', modelId: 'lumen-canvas', category: 'image/default' });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.resolved).toMatchObject({ versionId: 'lumen-canvas-v2' });
  });

  it('scans the other categories when the model is not where the link says', async () => {
    const { result } = resolve({ kind: 'model', modelId: 'halcyon-dream', category: 'image/default' });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.resolved).toMatchObject({ versionId: 'halcyon-dream-1-5' });
  });

  it('gives a clear error for a model no category has', async () => {
    const { result } = resolve({ kind: 'model', modelId: 'no-such-model' });
    await waitFor(() => expect(result.current.status).toBe('error'));
    const error = result.current.error;
    expect(error).toBeInstanceOf(ApiError);
    expect(error?.code).toBe('unknown_model');
    expect(error?.message).toBe('This model is not available: it does not exist or has been disabled.');
    expect(error?.remedy).toBe('Choose another model from the catalog.');
  });

  it('passes on the failure of a category it could not read', async () => {
    const fake = fakeClient();
    fake.listModels.mockRejectedValue(
      new ApiError({ status: 0, code: 'network_error', type: 'client_error' }),
    );
    const { result } = resolve({ kind: 'model', modelId: 'lumen-canvas' }, fake);
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error?.code).toBe('network_error');
  });

  it('loads a tool and a template by slug', async () => {
    const { result, rerender, fake } = resolve({ kind: 'tool', slug: 'remove-background' });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.resolved).toMatchObject({ kind: 'tool', tool: { name: 'Remove background' } });
    expect(fake.getAiTool).toHaveBeenCalledWith('remove-background', expect.anything());

    rerender({ s: { kind: 'template', slug: 'drone-flyover' } });
    await waitFor(() => expect(result.current.resolved?.kind).toBe('template'));
    expect(result.current.resolved).toMatchObject({ template: { name: 'Drone flyover' } });
    expect(fake.listModels).not.toHaveBeenCalled();
  });

  it('turns an unknown tool or template into an error state', async () => {
    const { result, rerender } = resolve({ kind: 'tool', slug: 'nope' });
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error?.code).toBe('unknown_ai_tool');
    expect(result.current.error?.message).toBe(
      'This AI tool is not available: it does not exist or has been disabled.',
    );

    rerender({ s: { kind: 'template', slug: 'autumn-leaves-draft' } });
    await waitFor(() => expect(result.current.error?.code).toBe('unknown_template'));
  });

  it('returns the same object while nothing changes', async () => {
    const { result, rerender } = resolve({ kind: 'tool', slug: 'remove-background' });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    const first = result.current;
    rerender({ s: { kind: 'tool', slug: 'remove-background' } });
    expect(result.current).toBe(first);
  });
});
