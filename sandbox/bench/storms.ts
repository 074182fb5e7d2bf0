import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { spawnSandbox } from '../src/spawn-sandbox';
import type { SandboxFigure } from './load';

// Two storms against a sandbox of its own (a child process, so its memory is its own), each run RUNS times
// on a fresh child, reported as the median with the range:
//   - ten 100 MB uploads at once (WAV files, cheap to check, so the figure is the bodies' memory and not a
//     decoder's): the growth of the process's peak resident memory (VmHWM) from before them. Uploads stream
//     to disk (sandbox/README.md: Limits), so the target is at most 256 MB whatever the total of 1 GB;
//   - a render storm of 20 video tasks whose outputs are all asked for at once (each download waits for
//     its render; renders wait in one queue as wide as the cores): the latency of GET /v1/me, asked one
//     after another for as long as the storm lasts, its 95th percentile.
// The client runs on the same machine: on a loaded machine the latencies are upper bounds.

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 3);
const UPLOADS = 10;
const UPLOAD_BYTES = 100 * 1000 * 1000;
const VIDEO_TASKS = 20;

interface Answer {
  status: number;
  body: string;
}

function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (text += c.length > 4096 ? '' : c)); // media bodies are not kept
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A WAV of `bytes` in all (silence), streamed 1 MiB at a time: the client holds one chunk. */
function uploadWav(base: string, key: string, bytes: number): Promise<Answer> {
  const dataBytes = bytes - 44;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(48_000, 24);
  header.writeUInt32LE(96_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  const chunk = Buffer.alloc(1024 * 1024);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/uploads`,
      {
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'audio/wav', 'Content-Length': bytes },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(header);
    let sent = 0;
    const pump = () => {
      while (sent < dataBytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, dataBytes - sent));
        sent += part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/** Resident memory now and at its peak, in MiB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function withSandbox<T>(
  job: (sb: { pid: number; origin: string; base: string; keys: Record<string, string> }) => Promise<T>,
): Promise<T> {
  const { child, origin } = await spawnSandbox(['--port', '0'], {
    SANDBOX_RATE_LIMITS: 'off',
    SANDBOX_TASK_MS: '200',
    SANDBOX_DATA_DIR: '',
  });
  child.stdout!.resume();
  try {
    const list = JSON.parse((await send(`${origin}/__sandbox/keys`, 'GET', {})).body) as Array<{
      name: string;
      key: string;
    }>;
    const keys = Object.fromEntries(list.map((k) => [k.name, k.key]));
    return await job({ pid: child.pid!, origin, base: `${origin}/v1`, keys });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

interface UploadRun {
  peakGrowthMb: number;
  rssGrowthMb: number;
  seconds: number;
}

async function uploadStorm(): Promise<UploadRun> {
  return withSandbox(async (sb) => {
    const key = sb.keys.team!;
    // Warm up: the first upload loads the code paths and the checks' libraries.
    const warm = await uploadWav(sb.base, key, 1024 * 1024);
    if (warm.status !== 200) throw new Error(`warm-up upload answered ${warm.status}: ${warm.body}`);
    const before = memoryOf(sb.pid);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: UPLOADS }, () => uploadWav(sb.base, key, UPLOAD_BYTES)),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const a of answers) if (a.status !== 200) throw new Error(`upload answered ${a.status}: ${a.body}`);
    const after = memoryOf(sb.pid);
    return { peakGrowthMb: after.peak - before.peak, rssGrowthMb: after.rss - before.rss, seconds };
  });
}

interface RenderRun {
  p95Ms: number;
  p50Ms: number;
  maxMs: number;
  samples: number;
  seconds: number;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function renderStorm(): Promise<RenderRun> {
  return withSandbox(async (sb) => {
    const auth = { Authorization: `Bearer ${sb.keys.team}` };
    const { models } = JSON.parse(
      (await send(`${sb.base}/models?type=video&subtype=text-ref`, 'GET', auth)).body,
    ) as {
      models: Array<{
        id: string;
        versions: Array<{ id: string }>;
        params: Array<{ id: string; required?: boolean }>;
      }>;
    };
    const model = models.find((m) => !m.params.some((p) => p.required && p.id !== 'prompt'));
    if (!model) throw new Error('no text-to-video model that needs only a prompt');
    const ids: string[] = [];
    for (let i = 0; i < VIDEO_TASKS; i++) {
      const a = await send(
        `${sb.base}/tasks`,
        'POST',
        { ...auth, 'Content-Type': 'application/json' },
        JSON.stringify({
          interfaceId: model.id,
          versionId: model.versions[0]!.id,
          params: { prompt: `storm ${i}` },
        }),
      );
      if (a.status !== 200) throw new Error(`POST /tasks answered ${a.status}: ${a.body}`);
      ids.push((JSON.parse(a.body) as { taskId: string }).taskId);
    }
    // Settled at once; each output's download then waits for its render.
    await send(
      `${sb.origin}/__sandbox/clock`,
      'POST',
      { 'Content-Type': 'application/json' },
      '{"advanceMs":3600000}',
    );
    const started = performance.now();
    let storming = true;
    const latencies: number[] = [];
    const prober = (async () => {
      while (storming) {
        const t0 = performance.now();
        const a = await send(`${sb.base}/me`, 'GET', auth);
        if (a.status !== 200) throw new Error(`GET /me answered ${a.status} during the storm`);
        latencies.push(performance.now() - t0);
      }
    })();
    try {
      await Promise.all(
        ids.map(async (id) => {
          const task = JSON.parse((await send(`${sb.base}/tasks/${id}`, 'GET', auth)).body) as {
            status: string;
            outputs: Array<{ url: string }>;
          };
          if (task.status !== 'succeeded') throw new Error(`task ${id} is ${task.status}`);
          const file = await send(task.outputs[0]!.url, 'GET', {});
          if (file.status !== 200) throw new Error(`output of ${id}: ${file.status}`);
        }),
      );
    } finally {
      storming = false;
      await prober;
    }
    return {
      p95Ms: percentile(latencies, 95),
      p50Ms: percentile(latencies, 50),
      maxMs: Math.max(...latencies),
      samples: latencies.length,
      seconds: (performance.now() - started) / 1000,
    };
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function stat(xs: number[], digits = 0) {
  const r = (n: number) => Number(n.toFixed(digits));
  return { value: r(median(xs)), range: `${r(Math.min(...xs))} to ${r(Math.max(...xs))}` };
}

/** The storms' figures: medians of RUNS runs, each with its range. */
export async function sandboxStorms(
  log: (line: string) => void = console.log,
): Promise<Record<string, SandboxFigure>> {
  const uploads: UploadRun[] = [];
  const renders: RenderRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const u = await uploadStorm();
    log(
      `  storm run ${i + 1}: ${UPLOADS} x 100 MB uploads in ${u.seconds.toFixed(1)} s, peak RSS +${Math.round(u.peakGrowthMb)} MB, RSS +${Math.round(u.rssGrowthMb)} MB`,
    );
    uploads.push(u);
    const r = await renderStorm();
    log(
      `  storm run ${i + 1}: ${VIDEO_TASKS} renders in ${r.seconds.toFixed(1)} s, GET /me p95 ${r.p95Ms.toFixed(0)} ms (p50 ${r.p50Ms.toFixed(0)}, max ${r.maxMs.toFixed(0)}, ${r.samples} calls)`,
    );
    renders.push(r);
  }
  const of = `median of ${RUNS} runs`;
  const peak = stat(uploads.map((u) => u.peakGrowthMb));
  const rss = stat(uploads.map((u) => u.rssGrowthMb));
  const upSeconds = stat(
    uploads.map((u) => u.seconds),
    1,
  );
  const p95 = stat(renders.map((r) => r.p95Ms));
  const p50 = stat(renders.map((r) => r.p50Ms));
  const renderSeconds = stat(
    renders.map((r) => r.seconds),
    1,
  );
  const samples = stat(renders.map((r) => r.samples));
  return {
    'rss.tenUploads100MB': {
      value: peak.value,
      unit: 'MB',
      target: '<= 256 MB',
      ok: peak.value <= 256,
      note: `peak RSS growth during ${UPLOADS} concurrent 100 MB uploads (1 GB in all, streamed to disk); ${of}, range ${peak.range}; RSS after +${rss.value} MB (${rss.range}); ${upSeconds.value} s (${upSeconds.range})`,
    },
    'renderStorm.me.p95': {
      value: p95.value,
      unit: 'ms',
      target: 'reported',
      ok: true,
      note: `GET /v1/me one after another while ${VIDEO_TASKS} video outputs render (ffmpeg queue as wide as the cores); ${of}, range ${p95.range}; p50 ${p50.value} ms (${p50.range}); storm ${renderSeconds.value} s (${renderSeconds.range}), ${samples.value} calls`,
    },
  };
}
