import { writeSync } from 'node:fs';
import sharp from 'sharp';
import { startSandbox } from '../src/server';

// What a sandbox keeps of each task, run in a process of its own with --expose-gc (memory.test.ts runs it;
// by hand: `node --expose-gc --import tsx sandbox/test/retained-memory.ts [tasks] [warm-up tasks]`).
// It makes tasks the way the soak's creator does (bench/soak.ts: a generate, an upload, a compare of two
// image models, each task polled to its end and its output downloaded), collects the garbage, and prints
// one line of JSON: the growth per task, in KB, of JS heap, external memory and resident memory from the
// end of a warm-up (code compiled, pools made) to the end, and the least-squares slope of resident memory
// over every round (rssSlopeKb). Media bytes in memory are a cache with a bound of its own
// (storage.test.ts), kept at 1 MiB here unless RETAINED_MEDIA_MEMORY_MB says otherwise.

const tasks = Number(process.argv[2] ?? 150);
const warmUp = Number(process.argv[3] ?? 45);
const gc = globalThis.gc;
if (!gc) throw new Error('run with --expose-gc');

const running = await startSandbox({
  port: 0,
  taskMs: 40,
  moderationMs: 40,
  rateLimits: false,
  mediaMemoryBytes: Number(process.env.RETAINED_MEDIA_MEMORY_MB ?? 1) * 1024 * 1024,
});
const keys = (await (await fetch(`${running.origin}/__sandbox/keys`)).json()) as Array<{
  name: string;
  key: string;
}>;
const auth = { Authorization: `Bearer ${keys.find((k) => k.name === 'personal')!.key}` };
const png = await sharp({
  create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } },
})
  .png()
  .toBuffer();

let made = 0;
async function task(interfaceId: string, versionId: string, prompt: string): Promise<void> {
  const created = await fetch(`${running.baseUrl}/tasks`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `${interfaceId} ${prompt}` },
    body: JSON.stringify({ interfaceId, versionId, params: { prompt } }),
  });
  const { taskId } = (await created.json()) as { taskId: string };
  made++;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await fetch(`${running.baseUrl}/tasks/${taskId}`, { headers: auth });
    const t = (await answer.json()) as { status: string; outputs: Array<{ url: string }> };
    if (t.status === 'queued' || t.status === 'running') continue;
    for (const output of t.outputs) await (await fetch(output.url)).arrayBuffer();
    return;
  }
}

async function round(i: number): Promise<void> {
  await task('pixelmoss-pop', 'pixelmoss-pop-1', `generate ${i}`);
  const upload = await fetch(`${running.baseUrl}/uploads`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'image/png' },
    body: png,
  });
  await (await fetch(((await upload.json()) as { url: string }).url)).arrayBuffer();
  await Promise.all([
    task('pixelmoss-pop', 'pixelmoss-pop-1', `compare ${i}`),
    task('lumen-canvas', 'lumen-canvas-v2', `compare ${i}`),
  ]);
}

function settled(): NodeJS.MemoryUsage {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage();
}

let i = 0;
while (made < warmUp) await round(i++);
const before = settled();
const start = made;
// Resident memory after each round: its least-squares slope, as the soak reports it, rather than two
// points (an allocator gives memory back in its own time, so one reading can be off by tens of MB).
const points: Array<[number, number]> = [];
while (made < start + tasks) {
  await round(i++);
  points.push([made - start, settled().rss]);
}
const after = settled();
const n = points.length;
const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
const slope =
  points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0) /
  points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
const perTaskKb = (field: keyof typeof after) =>
  Math.round(((after[field] - before[field]) / (made - start) / 1024) * 10) / 10;
const result = {
  tasks: made - start,
  rssSlopeKb: Math.round((slope / 1024) * 10) / 10,
  rssKb: perTaskKb('rss'),
  heapUsedKb: perTaskKb('heapUsed'),
  externalKb: perTaskKb('external'),
  heapTotalKb: perTaskKb('heapTotal'),
  rssMb: Math.round(after.rss / 1024 / 102.4) / 10,
};
await running.close();
writeSync(1, `${JSON.stringify(result)}\n`);
process.exit(0);
