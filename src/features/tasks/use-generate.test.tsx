import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../../contract/quote';
import type { TaskRequest } from '../../../contract/task';
import type { ResolvedSelection } from '../../model/selection';
import { sampleMe } from '../../test/me';
import { fixtureModel } from '../../test/sandbox-catalog';
import { useGenerate } from './use-generate';
import type { TaskRunner } from './use-tasks';

// What one click on Generate sends (docs/ARCHITECTURE.md "From Generate to the gallery"): the form's
// request once, priced in the history by the quote the user saw; a batch over the balance or without a
// settled price is refused before any request.

const model = fixtureModel('lumen-canvas');
const target: ResolvedSelection = { kind: 'model', model, versionId: model.versions[0]!.id };
const body: TaskRequest = {
  interfaceId: model.id,
  versionId: target.versionId,
  params: { prompt: 'a lighthouse at dusk' },
};
const quote = (credits: number): Quote => ({
  credits,
  estimatedSeconds: 12,
  modelId: model.id,
  versionId: target.versionId,
  modelName: model.name,
  breakdown: {
    pricingKey: 'image',
    base: credits,
    multiplier: 1,
    surcharges: 0,
    basePrice: 0,
    minPriceApplied: false,
  },
});

/**
 * A runner whose outbox records what it is given; the queue sends at once; its history knows one output,
 * `${KNOWN_OUTPUT}` (the first of task_parent).
 */
const KNOWN_OUTPUT = 'https://cdn.example.test/out/parent.png';
function fakeRunner() {
  const outbox = {
    submit: vi.fn(async () => ({ kind: 'created' as const, taskId: 'task_1' })),
    submitBatch: vi.fn(async (items: readonly unknown[]) =>
      items.map((_, i) => ({ kind: 'created' as const, taskId: `task_${i}` })),
    ),
  };
  const prompts = { record: vi.fn(async () => undefined) };
  const queue = { wouldSendNow: () => true };
  const store = {
    outputAt: (url: string) => (url === KNOWN_OUTPUT ? { taskId: 'task_parent', outputIndex: 0 } : undefined),
  };
  return { runner: { outbox, prompts, queue, store } as unknown as TaskRunner, outbox, prompts };
}

function setup({
  credits = 4,
  stale = false,
  me = sampleMe(),
  withTarget = true,
}: { credits?: number; stale?: boolean; me?: ReturnType<typeof sampleMe>; withTarget?: boolean } = {}) {
  const fake = fakeRunner();
  const hook = renderHook(() =>
    useGenerate({
      runner: fake.runner,
      target: withTarget ? target : undefined,
      request: body,
      promptId: 'prompt',
      quote: { quote: quote(credits), stale },
      me,
    }),
  );
  return { ...fake, hook };
}

describe('useGenerate', () => {
  it('sends the form’s request once, with the price the user saw written into the history’s entry', async () => {
    const { hook, outbox, prompts } = setup({ credits: 4 });
    await act(async () => hook.result.current.generate(body));
    expect(outbox.submit).toHaveBeenCalledTimes(1);
    expect(outbox.submit).toHaveBeenCalledWith(
      body,
      expect.objectContaining({ modelId: model.id, quotedCredits: 4, estimatedSeconds: 12 }),
    );
    expect(outbox.submitBatch).not.toHaveBeenCalled();
    expect(prompts.record).toHaveBeenCalledWith(['a lighthouse at dusk']);
  });

  it('records the outputs of the history its params name as the task’s parents (lineage), and none when it names none', async () => {
    const { hook, outbox } = setup({ credits: 4 });
    await act(async () => hook.result.current.generate(body));
    expect((outbox.submit.mock.calls[0] as unknown[])[1]).not.toHaveProperty('parents');
    const fromOutput = { ...body, params: { ...body.params, image_url: KNOWN_OUTPUT } };
    await act(async () => hook.result.current.generate(fromOutput));
    expect(outbox.submit).toHaveBeenLastCalledWith(
      fromOutput,
      expect.objectContaining({ parents: [{ taskId: 'task_parent', outputIndex: 0 }] }),
    );
  });

  it('writes no price into the history when the quote on screen was for another request', async () => {
    const { hook, outbox } = setup({ stale: true });
    await act(async () => hook.result.current.generate(body));
    expect(outbox.submit).toHaveBeenCalledWith(body, expect.objectContaining({ quotedCredits: null }));
  });

  it('sends a batch of Runs as one batch, each task once', async () => {
    const { hook, outbox } = setup({ credits: 4 });
    act(() => hook.result.current.batch.controls.onRunsChange(3));
    await act(async () => hook.result.current.generate(body));
    expect(outbox.submit).not.toHaveBeenCalled();
    expect(outbox.submitBatch).toHaveBeenCalledTimes(1);
    expect(outbox.submitBatch.mock.calls[0]![0]).toHaveLength(3);
  });

  it('refuses a batch over the balance before any request, with the numbers', async () => {
    const { hook, outbox } = setup({ credits: 50, me: sampleMe({ user: { creditBalance: 120 } }) });
    act(() => hook.result.current.batch.controls.onRunsChange(3));
    await act(async () => hook.result.current.generate(body));
    expect(outbox.submit).not.toHaveBeenCalled();
    expect(outbox.submitBatch).not.toHaveBeenCalled();
    expect(hook.result.current.batch.controls.refusals.join(' ')).toMatch(/150 credits.*120 credits balance/);
  });

  it('refuses a batch whose price is not settled yet, before any request', async () => {
    const { hook, outbox } = setup({ stale: true });
    act(() => hook.result.current.batch.controls.onRunsChange(2));
    await act(async () => hook.result.current.generate(body));
    expect(outbox.submitBatch).not.toHaveBeenCalled();
    expect(hook.result.current.batch.controls.refusals[0]).toMatch(/price of this batch is not known yet/);
  });

  it('sends nothing while what is open has not resolved', async () => {
    const { hook, outbox } = setup({ withTarget: false });
    await act(async () => hook.result.current.generate(body));
    expect(outbox.submit).not.toHaveBeenCalled();
    expect(outbox.submitBatch).not.toHaveBeenCalled();
  });
});
