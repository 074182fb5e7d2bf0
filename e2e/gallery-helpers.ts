import type { Page } from '@playwright/test';
import { SANDBOX_BASE_URL, expect, type Sandbox } from './fixtures';
import { POP, popMeta as popMetaOf } from './pop-model';

// The gallery's tests seed a history the way a user brings one back: real sandbox tasks (run through
// the API, not the page), handed to the studio as an imported history file (its own export format).

export interface Seeded {
  taskId: string;
  prompt: string;
  outputs: Array<{ url: string; thumbnailUrl?: string }>;
  request: Record<string, unknown>;
  meta: Record<string, unknown>;
  createdAt: number;
  status?: string;
}

export async function runPop(sandbox: Sandbox, prompt: string): Promise<{ taskId: string; url: string }> {
  const task = (await sandbox.runTask({ ...POP, params: { prompt } })) as unknown as {
    taskId: string;
    outputs: Array<{ url: string }>;
  };
  expect(task.outputs[0]?.url).toBeTruthy();
  return { taskId: task.taskId, url: task.outputs[0]!.url };
}

export const popMeta = popMetaOf({ estimatedSeconds: 4, credits: 2 });

export function historyFile(tasks: Seeded[], judgements: unknown[] = []) {
  return {
    format: 'media-studio-history',
    version: 1,
    exportedAt: new Date().toISOString(),
    tasks: tasks.map((t) => ({
      taskId: t.taskId,
      request: t.request,
      meta: t.meta,
      status: t.status ?? 'succeeded',
      outputs: t.outputs,
      error: t.status === 'failed' ? { code: 'generation_failed', message: 'It broke.' } : null,
      creditsCharged: 2,
      createdAt: t.createdAt,
      completedAt: t.status === 'failed' ? t.createdAt + 2_000 : t.createdAt + 4_000,
    })),
    ...(judgements.length ? { judgements } : {}),
  };
}

export async function importHistory(page: Page, file: unknown): Promise<void> {
  await page.getByLabel('Import history file').setInputFiles({
    name: 'history.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(file)),
  });
  await expect(page.getByText(/^Imported \d+ tasks?/)).toBeVisible();
}

/**
 * Four real image tasks (each later task a minute newer), the first with a second output (the API gives
 * one today; the field is a list): five image tiles.
 */
export async function seedImages(sandbox: Sandbox, count = 4): Promise<Seeded[]> {
  const now = Date.now();
  const seeded: Seeded[] = [];
  for (let i = 0; i < count; i++) {
    const prompt = `gallery tile ${i + 1}`;
    const { taskId, url } = await runPop(sandbox, prompt);
    seeded.push({
      taskId,
      prompt,
      outputs: [{ url }],
      request: { ...POP, params: { prompt } },
      meta: popMeta,
      createdAt: now - (count - i) * 60_000,
    });
  }
  if (seeded[1]) seeded[0]!.outputs.push({ url: seeded[1].outputs[0]!.url });
  return seeded;
}

/** A background removal made from `source` (an AI tool: an edit, with its source in params). */
export async function runCutout(sandbox: Sandbox, source: string, createdAt: number): Promise<Seeded> {
  const res = (await sandbox.runTask({
    aiTool: 'remove-background',
    params: { image_url: source },
  })) as unknown as {
    taskId: string;
    outputs: Array<{ url: string }>;
  };
  return {
    taskId: res.taskId,
    prompt: '',
    outputs: res.outputs,
    request: { aiTool: 'remove-background', params: { image_url: source } },
    meta: { ...popMeta, title: 'Remove background', subtitle: '', kind: 'tool', category: undefined },
    createdAt,
  };
}

export const sandboxBase = SANDBOX_BASE_URL;
