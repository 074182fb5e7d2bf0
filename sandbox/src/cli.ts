import { parseArgs } from 'node:util';
import { checkHosts } from '../../node-shared/hosts';
import { relaunchWithSandboxEnv } from '../../node-shared/process-env';

// `npm run sandbox [-- --port N --host H --public-url U --data-dir D --allow-origin O ...]`;
// environment variables as in sandbox/README.md.

// Started again with MALLOC_ARENA_MAX when it is missing (node-shared/process-env.ts); the sandbox and
// its media libraries are loaded only in the process that runs it.
await relaunchWithSandboxEnv();
const { startSandbox } = await import('./server');
const { ffmpegBinary } = await import('./media/ffmpeg');

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
    'data-dir': { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    'api-any-origin': { type: 'boolean' },
    'allow-remote': { type: 'boolean' },
  },
});

const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const mib = (v: string | undefined) => (num(v) === undefined ? undefined : num(v)! * 1024 * 1024);

/**
 * Origins allowed to use the control API: the flag(s), else SANDBOX_ALLOWED_ORIGINS (comma-separated),
 * else the studio's dev server and preview (`npm run dev`, `vite preview`) on this machine.
 */
const allowedOrigins = values['allow-origin']?.length
  ? values['allow-origin']
  : process.env.SANDBOX_ALLOWED_ORIGINS !== undefined
    ? process.env.SANDBOX_ALLOWED_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
    : ['http://127.0.0.1:5173', 'http://127.0.0.1:4173'];

// As `npm start`: a host other than loopback puts the control API (keys, faults, clock) on the network,
// so it is refused unless asked for, and then warned about.
const host = values.host ?? process.env.SANDBOX_HOST ?? '127.0.0.1';
try {
  const warning = checkHosts(
    [host],
    values['allow-remote'] === true ||
      process.env.STUDIO_ALLOW_REMOTE === '1' ||
      process.env.SANDBOX_ALLOW_REMOTE === '1',
  );
  if (warning) console.warn(warning);
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}

const running = await startSandbox({
  port: num(values.port ?? process.env.SANDBOX_PORT) ?? 4010,
  host,
  publicUrl: values['public-url'] ?? process.env.SANDBOX_PUBLIC_URL,
  taskMs: num(process.env.SANDBOX_TASK_MS),
  moderationMs: num(process.env.SANDBOX_MODERATION_MS),
  rateLimits: process.env.SANDBOX_RATE_LIMITS !== 'off',
  dataDir: values['data-dir'] ?? process.env.SANDBOX_DATA_DIR,
  allowedOrigins,
  apiAnyOrigin: values['api-any-origin'] === true || process.env.SANDBOX_API_ANY_ORIGIN === '1',
  mediaMemoryBytes: mib(process.env.SANDBOX_MEDIA_MEMORY_MB),
  mediaDiskBytes: mib(process.env.SANDBOX_MEDIA_DISK_MB),
});

console.log(`Sandbox API at ${running.baseUrl}  (demo keys: ${running.origin}/__sandbox/keys)`);
console.log(`Control API open to this origin and: ${allowedOrigins.join(', ') || 'no other'}`);
if (running.apiAnyOrigin) console.log('API open to every web origin (--api-any-origin)');
const ffmpeg = await ffmpegBinary();
console.log(`Video and audio by the ${ffmpeg.source} ffmpeg (${ffmpeg.path}); FFMPEG_PATH chooses another`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
