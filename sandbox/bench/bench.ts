import { benchMedia } from '../src/media/bench-media';
import { startSandbox } from '../src/server';

// `npm run bench:sandbox`: throughput of GET /tasks/{id} (the studio's hottest call) and the time to
// make each kind of output. Prints figures; it is a measurement, not a test.

const DURATION_MS = 5000;
const CONCURRENCY = 16;

const running = await startSandbox({ port: 0, taskMs: 200, rateLimits: false });
try {
  const keys = (await (await fetch(`${running.origin}/__sandbox/keys`)).json()) as Array<{
    name: string;
    key: string;
  }>;
  const auth = { Authorization: `Bearer ${keys.find((k) => k.name === 'personal')!.key}` };
  const models = (await (
    await fetch(`${running.baseUrl}/models?type=image&subtype=default`, { headers: auth })
  ).json()) as { models: Array<{ id: string; versions: Array<{ id: string }> }> };
  const model = models.models[0]!;
  const created = (await (
    await fetch(`${running.baseUrl}/tasks`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        interfaceId: model.id,
        versionId: model.versions[0]!.id,
        params: { prompt: 'bench' },
      }),
    })
  ).json()) as { taskId: string };

  let count = 0;
  const end = Date.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const r = await fetch(`${running.baseUrl}/tasks/${created.taskId}`, { headers: auth });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`GET /tasks/{id} answered ${r.status}`);
        count++;
      }
    }),
  );
  console.log(
    `GET /tasks/{id}: ${Math.round(count / (DURATION_MS / 1000))} requests/s (${CONCURRENCY} concurrent, client on the same machine)`,
  );

  for (const { kind, ms } of await benchMedia()) console.log(`make ${kind}: ${ms} ms`);
} finally {
  await running.close();
}
