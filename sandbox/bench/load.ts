import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import sharp from 'sharp';
import { spawnSandbox } from '../src/spawn-sandbox';

// The sandbox under load (docs/benchmarks.md), on a sandbox of its own started as a child process
// (`node --import tsx sandbox/src/cli.ts`), so its resident memory is that process's own (VmRSS and its
// peak VmHWM from /proc), not the client's:
//   - requests per second on GET /tasks/{id} and on POST /tasks: a closed loop of CONCURRENCY requests
//     on keep-alive connections (node:http, one Agent), rate limits off, for LOAD_MS;
//   - resident memory after 1,000 image tasks (made, settled and every output downloaded), then after
//     100 uploads of a 10 MB PNG on top (storage keeps 64 MiB of media in memory and the rest on disk,
//     sandbox/README.md: Storage, so 1 GB of uploads must not stay in memory; RSS is read after each half).
// Memory figures are MiB (written MB), as /proc reports them; the upload's size is in decimal MB.
// Each figure is the median of RUNS runs (a fresh child each), with the range in its note. The client
// runs on the same machine and takes its share of the CPU: on a shared, loaded machine the rates are
// lower bounds and the times upper bounds.

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 3);
const LOAD_MS = 3000;
const CONCURRENCY = 32;
const TASKS = 1000;
const UPLOADS = 100;
const UPLOAD_SIDE = 1826; // 1826 x 1826 RGB, stored uncompressed: a PNG of 10.0 MB

/** Like bench/results-file.ts's Figure (the sandbox imports nothing of the studio's). */
export interface SandboxFigure {
  value: number | null;
  unit: string;
  target: string;
  ok: boolean | null;
  note?: string;
}

interface Child {
  process: ChildProcess;
  origin: string;
  base: string;
  keys: Record<string, string>;
}

interface Run {
  getRps: number;
  postRps: number;
  startMb: number;
  tasksMb: number;
  tasksPeakMb: number;
  uploadsHalfMb: number;
  uploadsMb: number;
  uploadsPeakMb: number;
}

/** What the bench reads of the API's answers. */
interface Task {
  taskId: string;
  status: string;
  outputs: Array<{ url: string }>;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Answer {
  status: number;
  body: Buffer;
}

function send(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function json<T = Task>(
  url: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: unknown,
) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const a = await send(
    url,
    method,
    payload ? { ...headers, 'Content-Type': 'application/json' } : headers,
    payload,
  );
  if (a.status >= 300)
    throw new Error(`${method} ${url} answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
  return JSON.parse(a.body.toString()) as T;
}

/**
 * Requests per second of `make()` requests, CONCURRENCY at a time for LOAD_MS, or until `limit` of them
 * have gone (what a balance pays for); every answer must be 200.
 */
async function rate(make: () => Promise<Answer>, limit = Infinity): Promise<number> {
  let count = 0;
  let started = 0;
  const start = performance.now();
  const end = start + LOAD_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end && started < limit) {
        started++;
        const a = await make();
        if (a.status !== 200) throw new Error(`answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
        count++;
      }
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

/** n jobs, `width` at a time. */
async function pool<T>(n: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}

/** Resident memory of a process and its peak, in MB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function startChild(): Promise<Child> {
  const { child, origin } = await spawnSandbox(['--port', '0'], {
    SANDBOX_RATE_LIMITS: 'off',
    SANDBOX_TASK_MS: '200',
    SANDBOX_DATA_DIR: '',
  });
  child.stdout!.resume();
  const list = await json<Array<{ name: string; key: string }>>(`${origin}/__sandbox/keys`);
  return {
    process: child,
    origin,
    base: `${origin}/v1`,
    keys: Object.fromEntries(list.map((k) => [k.name, k.key])),
  };
}

async function stopChild(child: Child): Promise<void> {
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await exited;
}

async function oneRun(png: Buffer): Promise<Run> {
  const sb = await startChild();
  try {
    const pid = sb.process.pid!;
    const auth = (name: string) => ({ Authorization: `Bearer ${sb.keys[name]}` });
    const startMb = memoryOf(pid).rss;
    const { models } = await json<{ models: Array<{ id: string; versions: Array<{ id: string }> }> }>(
      `${sb.base}/models?type=image&subtype=image-svg`,
      'GET',
      auth('team'),
    );
    const svgTask = {
      interfaceId: models[0]!.id,
      versionId: models[0]!.versions[0]!.id,
      params: { prompt: 'bench' },
    };

    // GET /tasks/{id} of one task.
    const one = await json(`${sb.base}/tasks`, 'POST', auth('team'), svgTask);
    const getRps = await rate(() => send(`${sb.base}/tasks/${one.taskId}`, 'GET', auth('team')));

    // POST /tasks on the team key (20,000 credits), from a reset: at most as many as the balance pays
    // for (a quiet machine makes more in LOAD_MS than 20,000 credits buy).
    await json(`${sb.origin}/__sandbox/reset`, 'POST');
    const body = Buffer.from(JSON.stringify(svgTask));
    const postHeaders = { ...auth('team'), 'Content-Type': 'application/json' };
    const { credits } = await json<{ credits: number }>(`${sb.base}/quote`, 'POST', auth('team'), svgTask);
    const me = await json<{ team: { creditBalance: number } }>(`${sb.base}/me`, 'GET', auth('team'));
    const postRps = await rate(
      () => send(`${sb.base}/tasks`, 'POST', postHeaders, body),
      Math.floor(me.team.creditBalance / credits),
    );

    // 1,000 image tasks (a 512 px JPEG each), made and settled, every output downloaded.
    await json(`${sb.origin}/__sandbox/reset`, 'POST');
    const imageTask = {
      interfaceId: 'pixelmoss-pop',
      versionId: 'pixelmoss-pop-1',
      params: { resolution: '512' },
    };
    const ids = await pool(TASKS, 16, async (i) => {
      const t = await json(`${sb.base}/tasks`, 'POST', auth('personal'), {
        ...imageTask,
        params: { ...imageTask.params, prompt: `bench task ${i}` },
      });
      return t.taskId as string;
    });
    await json(`${sb.origin}/__sandbox/clock`, 'POST', {}, { advanceMs: 24 * 3600 * 1000 });
    await pool(TASKS, 16, async (i) => {
      const t = await json(`${sb.base}/tasks/${ids[i]}`, 'GET', auth('personal'));
      if (t.status !== 'succeeded') throw new Error(`task ${ids[i]} is ${t.status}`);
      const file = await send(t.outputs[0]!.url, 'GET', {});
      if (file.status !== 200 || file.body.length === 0)
        throw new Error(`output of ${ids[i]}: ${file.status}`);
    });
    const tasks = memoryOf(pid);

    // 100 uploads of 10 MB on top, in two halves: a bound shows as no growth in the second.
    const uploadHeaders = { ...auth('team'), 'Content-Type': 'image/png' };
    const uploadHalf = () =>
      pool(UPLOADS / 2, 4, async () => {
        const a = await send(`${sb.base}/uploads`, 'POST', uploadHeaders, png);
        if (a.status !== 200)
          throw new Error(`POST /uploads answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
      });
    await uploadHalf();
    const half = memoryOf(pid);
    await uploadHalf();
    const uploads = memoryOf(pid);
    return {
      getRps,
      postRps,
      startMb,
      tasksMb: tasks.rss,
      tasksPeakMb: tasks.peak,
      uploadsHalfMb: half.rss,
      uploadsMb: uploads.rss,
      uploadsPeakMb: uploads.peak,
    };
  } finally {
    await stopChild(sb);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (n: number) => Math.round(n);

/** What the sandbox's figures would be: medians of RUNS runs, each with its range. */
export async function sandboxLoad(
  log: (line: string) => void = console.log,
): Promise<Record<string, SandboxFigure>> {
  const png = await sharp(randomBytes(UPLOAD_SIDE * UPLOAD_SIDE * 3), {
    raw: { width: UPLOAD_SIDE, height: UPLOAD_SIDE, channels: 3 },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await oneRun(png);
    log(
      `  run ${i + 1}: GET ${round(run.getRps)}/s, POST ${round(run.postRps)}/s, RSS ${round(run.startMb)} MB at start, ` +
        `${round(run.tasksMb)} MB after ${TASKS} tasks (peak ${round(run.tasksPeakMb)}), ` +
        `${round(run.uploadsHalfMb)} MB after ${UPLOADS / 2} uploads, ${round(run.uploadsMb)} MB after ${UPLOADS} (peak ${round(run.uploadsPeakMb)})`,
    );
    runs.push(run);
  }
  const stat = (pick: (r: Run) => number) => {
    const xs = runs.map(pick);
    const [min, max] = [round(Math.min(...xs)), round(Math.max(...xs))];
    return { value: round(median(xs)), range: min < 0 ? `${min} to ${max}` : `${min}-${max}` };
  };
  const of = `median of ${RUNS} runs`;
  const get = stat((r) => r.getRps);
  const post = stat((r) => r.postRps);
  const start = stat((r) => r.startMb);
  const tasks = stat((r) => r.tasksMb);
  const tasksPeak = stat((r) => r.tasksPeakMb);
  const uploads = stat((r) => r.uploadsMb);
  const uploadsPeak = stat((r) => r.uploadsPeakMb);
  const growth = stat((r) => r.uploadsMb - r.tasksMb);
  const secondHalf = stat((r) => r.uploadsMb - r.uploadsHalfMb);
  const uploadedMb = round((UPLOADS * png.length) / 1e6);
  return {
    'getTask.rps': {
      value: get.value,
      unit: 'req/s',
      target: 'reported',
      ok: true,
      note: `${CONCURRENCY} concurrent keep-alive, client on the same machine; ${of}, range ${get.range}`,
    },
    'postTask.rps': {
      value: post.value,
      unit: 'req/s',
      target: 'reported',
      ok: true,
      note: `image-svg task, ${CONCURRENCY} concurrent, for ${LOAD_MS / 1000} s or as many as the team's 20,000 credits buy; ${of}, range ${post.range}`,
    },
    'rss.start': {
      value: start.value,
      unit: 'MB',
      target: 'reported',
      ok: true,
      note: `range ${start.range}`,
    },
    'rss.after1000Tasks': {
      value: tasks.value,
      unit: 'MB',
      target: 'reported',
      ok: true,
      note: `512 px images made, settled and downloaded; ${of}, range ${tasks.range}; peak ${tasksPeak.value} MB (${tasksPeak.range})`,
    },
    'rss.after100Uploads': {
      value: uploads.value,
      unit: 'MB',
      target: 'reported',
      ok: true,
      note: `${UPLOADS} PNGs of ${(png.length / 1e6).toFixed(1)} MB (${uploadedMb} MB in all) on top; ${of}, range ${uploads.range}; peak ${uploadsPeak.value} MB (${uploadsPeak.range})`,
    },
    'rss.uploadGrowth': {
      value: growth.value,
      unit: 'MB',
      target: '<= 256 MB',
      ok: growth.value <= 256,
      note: `RSS after the uploads minus before them, against ${uploadedMb} MB uploaded (64 MiB media cache); range ${growth.range}; the second ${UPLOADS / 2} uploads ${secondHalf.value} MB (${secondHalf.range})`,
    },
  };
}
