import 'fake-indexeddb/auto';
import { afterAll, beforeAll, it } from 'vitest';
import { runModel } from '../test/runtime-model';
import { startSandboxProcess, type SandboxProcess } from '../test/sandbox-process';

// The connection runtime's model-based test (src/test/runtime-model.ts) against the sandbox as a child
// process, in real time: the studio's real fetch over real sockets (a dropped connection is a socket
// destroyed), tasks of 300 ms, the studio's waits 20 times faster. A run waits for its tasks, so this
// one makes few runs; connection-runtime.virtual.model.test.ts makes thousands on fake timers.
// MODEL_SEED replays a run (the seed is printed), MODEL_RUNS sets how many.

let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandboxProcess({ taskMs: 300, allowOrigin: location.origin });
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

it('keeps every intent charged at most once, and every caller told the truth, across tabs, the queue and faults (real time, over sockets)', async () => {
  await runModel(
    {
      ...sandbox,
      fetch: (input, init) => fetch(input, init),
      wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      speed: 20,
      virtual: false,
      patienceMs: 20_000,
    },
    {
      name: 'connection-runtime model test (sockets)',
      seed: Number(process.env.MODEL_SEED ?? 20261128),
      runs: Number(process.env.MODEL_RUNS ?? 20),
    },
  );
}, 600_000);
