import { startSandbox } from '../sandbox/src/server';

// The soak's sandbox (bench/soak.ts), a process of its own so that its resident memory is its own. It
// listens on SOAK_SANDBOX_PORT for the studio and answers the soak over IPC with what only the sandbox
// knows: its resident memory, and every task and charge of a key (to find lost tasks and double charges).

const running = await startSandbox({
  port: Number(process.env.SOAK_SANDBOX_PORT),
  allowedOrigins: [process.env.SOAK_STUDIO_ORIGIN!],
  taskMs: 3000,
  moderationMs: 3000,
});

export interface SoakSandboxState {
  rssMb: number;
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
  const state: SoakSandboxState = {
    rssMb: process.memoryUsage().rss / 1024 / 1024,
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
