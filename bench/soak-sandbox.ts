import { startSandbox } from '../sandbox/src/server';

// The soak's sandbox (bench/soak.ts), a process of its own so that its resident memory is its own. It
// listens on SOAK_SANDBOX_PORT for the studio and answers the soak over IPC with what only the sandbox
// knows: its memory (resident, V8's heap, the Buffers outside it and the media cache's share of those, so
// a growth says what grows), and every task and charge of a key (to find lost tasks and double charges).

const running = await startSandbox({
  port: Number(process.env.SOAK_SANDBOX_PORT),
  allowedOrigins: [process.env.SOAK_STUDIO_ORIGIN!],
  taskMs: 3000,
  moderationMs: 3000,
  // bench/rss-soak.ts keeps the media cache small, so that it is full within the first minute and the
  // resident memory after it has no reason to grow.
  mediaMemoryBytes: process.env.SOAK_MEDIA_MEMORY_MB
    ? Number(process.env.SOAK_MEDIA_MEMORY_MB) * 1024 * 1024
    : undefined,
});

export interface SoakSandboxState {
  rssMb: number;
  /** V8's heap in use, after a garbage collection when the child runs with --expose-gc. */
  heapUsedMb: number;
  /** Memory outside V8's heap that JavaScript holds (Buffers, ArrayBuffers). */
  externalMb: number;
  /** The media store's cache of file bytes (part of externalMb), bounded by its memoryBytes. */
  mediaCacheMb: number;
  tasks: Array<{ id: string; modelId: string; prompt: string; credits: number }>;
  /** The charges made on the key (a refund leaves a charge of 0). */
  charges: number[];
  balance: number;
}

process.on('message', (message: { keyName: string }) => {
  const sb = running.sandbox;
  const key = sb.demoKeys().find((k) => k.name === message.keyName)!;
  const record = sb.authenticate(`Bearer ${key.key}`);
  const snap = sb.snapshot();
  const me = sb.me(record) as { user?: { creditBalance: number }; team?: { creditBalance: number } };
  // Garbage not yet collected is no growth: collected first, so the heap and the Buffers are what is held.
  globalThis.gc?.();
  const memory = process.memoryUsage();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const state: SoakSandboxState = {
    rssMb: mb(memory.rss),
    heapUsedMb: mb(memory.heapUsed),
    externalMb: mb(memory.external),
    mediaCacheMb: mb(sb.media.stats().memoryBytes),
    tasks: snap.tasks
      .filter((t) => t.keyId === record.id)
      .map((t) => ({
        id: t.id,
        modelId: t.modelId,
        prompt: typeof t.params.prompt === 'string' ? t.params.prompt : '',
        credits: snap.charges[t.chargeIndex]?.credits ?? 0,
      })),
    charges: snap.charges.filter((c) => c.keyId === record.id).map((c) => c.credits),
    balance: (me.user ?? me.team)!.creditBalance,
  };
  process.send!(state);
});
// The soak went away (even by a crash): so does its sandbox.
process.on('disconnect', () => process.exit(0));
process.send!('ready');
