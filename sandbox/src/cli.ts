import { parseArgs } from 'node:util';
import { startSandbox } from './server';

// `npm run sandbox [-- --port N --host H --public-url U]`; environment variables as in sandbox/README.md.

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
    'data-dir': { type: 'string' },
  },
});

const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

const running = await startSandbox({
  port: num(values.port ?? process.env.SANDBOX_PORT) ?? 4010,
  host: values.host ?? process.env.SANDBOX_HOST ?? '127.0.0.1',
  publicUrl: values['public-url'] ?? process.env.SANDBOX_PUBLIC_URL,
  taskMs: num(process.env.SANDBOX_TASK_MS),
  moderationMs: num(process.env.SANDBOX_MODERATION_MS),
  rateLimits: process.env.SANDBOX_RATE_LIMITS !== 'off',
  dataDir: values['data-dir'] ?? process.env.SANDBOX_DATA_DIR,
});

console.log(`Sandbox API at ${running.baseUrl}  (demo keys: ${running.origin}/__sandbox/keys)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
