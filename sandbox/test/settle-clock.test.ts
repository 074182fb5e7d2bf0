import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { MediaWorks } from '../src/core/media-works';
import { Sandbox } from '../src/core/sandbox';

// A task answered as failed is answered refunded, even when the clock moves while the answer is made:
// the settling and the status read one instant. A clock that moves a millisecond on every reading puts
// the task's end between two of getTask's readings for one of the leads tried (with two readings, that
// answer was failed and still charged).

const works: MediaWorks = {
  render: async () => ({ bytes: Buffer.from('x'), contentType: 'image/jpeg' }),
  renderLogo: async () => ({ bytes: Buffer.from('x'), contentType: 'image/png' }),
  verifyUpload: async () => ({ ok: true, probe: { width: 4, height: 3 } }),
  inspectSource: async () => ({ width: 4, height: 3, opaque: true }),
  sampleImage: async () => ({ width: 4, height: 3, pixels: null }),
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a failed task is never answered failed with its credits still charged, whenever the clock moves', async () => {
  const mediaDir = mkdtempSync(join(tmpdir(), 'sandbox-settle-'));
  dirs.push(mediaDir);
  const sb = new Sandbox({
    publicUrl: 'http://sandbox.test',
    taskMs: 40,
    moderationMs: 40,
    rateLimits: false,
    mediaDir,
    works,
  });
  const personal = sb.demoKeys().find((k) => k.name === 'personal')!;
  const key = sb.authenticate(`Bearer ${personal.key}`);
  const real = sb.clock.now.bind(sb.clock);
  try {
    for (let lead = 0; lead < 6; lead++) {
      sb.clock.now = real;
      const task = sb.submitTask(
        key,
        { interfaceId: 'lumen-canvas', versionId: 'lumen-canvas-v3', params: { prompt: `[fail] ${lead}` } },
        undefined,
      );
      // From here every reading of the clock is a millisecond after the one before; `lead` readings
      // first, so the task's end falls at another point of getTask's readings each time.
      let t = real();
      sb.clock.now = () => t++;
      t += lead;
      let answer = await sb.getTask(key, task.taskId);
      for (let polls = 0; answer.status !== 'failed' && polls < 1000; polls++)
        answer = await sb.getTask(key, task.taskId);
      expect(answer.status).toBe('failed');
      expect(answer.creditsCharged, `lead ${lead}`).toBe(0);
    }
  } finally {
    sb.clock.now = real;
  }
});
