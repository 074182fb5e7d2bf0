import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// What the sandbox keeps per task, measured in a process of its own by retained-memory.ts: tasks made
// as the soak makes them (a generate, an upload, a compare of two models, each output downloaded), and
// the growth per task of JS heap, external memory (Buffers) and resident memory, each after a garbage
// collection. A task record, its output's entry, its Idempotency-Key record and its lines in the request
// log are a few KB; the media cache has a bound of its own (storage.test.ts) and is kept at 1 MiB here,
// so output bytes held anywhere else show up as external memory.

const run = promisify(execFile);

it('a task leaves under 16 KB of JS heap, under 8 KB of Buffers and under 192 KB of resident memory', async () => {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'sandbox/test/retained-memory.ts', '120', '30'],
    { timeout: 170_000 },
  );
  const result = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
  expect(result.tasks).toBeGreaterThanOrEqual(120);
  expect(result.heapUsedKb).toBeLessThan(16);
  expect(result.externalKb).toBeLessThan(8);
  // The slope over every round, not two readings: the allocator and V8 give memory back in their own
  // time, so it wanders by up to about 120 KB a task over 120 tasks (measured -95 to +120). A raw pixel
  // buffer kept by a render (256 KB for 256 x 256 RGBA, 1 MiB for 512 x 512) is well above the bound.
  expect(result.rssSlopeKb).toBeLessThan(192);
}, 180_000);
