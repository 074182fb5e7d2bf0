import { createServer, type Server } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { renderAudio } from '../sandbox/src/media/audio';
import { ffmpegBinary, type FfmpegSource } from '../sandbox/src/media/ffmpeg';
import { renderVideo } from '../sandbox/src/media/video';

// The sandbox's video and audio made by each ffmpeg it can run (the system's and the bundled 2018 build),
// served to a browser, which must decode and play every one of them. Used by the Chromium test
// (e2e/media-plays.spec.ts) and by the Firefox and WebKit runs (e2e-browsers/run.ts).

export interface MediaSample {
  /** "system mp4", "bundled ogg". */
  name: string;
  file: string;
  kind: 'video' | 'audio';
}

const FORMATS = [
  { format: 'mp4', kind: 'video' },
  { format: 'webm', kind: 'video' },
  { format: 'mp3', kind: 'audio' },
  { format: 'ogg', kind: 'audio' },
] as const;

/** Renders every format with the system ffmpeg and the bundled one into `dir`. Fails when there is no system ffmpeg. */
export async function writeMediaSamples(dir: string): Promise<MediaSample[]> {
  await mkdir(dir, { recursive: true });
  const samples: MediaSample[] = [];
  const saved = process.env.FFMPEG_PATH;
  try {
    for (const source of ['system', 'bundled'] satisfies FfmpegSource[]) {
      if (source === 'bundled') process.env.FFMPEG_PATH = 'bundled';
      else delete process.env.FFMPEG_PATH;
      const binary = await ffmpegBinary();
      if (binary.source !== source)
        throw new Error(`no ${source} ffmpeg (got ${binary.source}): run bash scripts/setup-machine.sh`);
      for (const { format, kind } of FORMATS) {
        const seed = `media-sample|${format}`;
        const media =
          kind === 'video'
            ? await renderVideo({
                kind,
                seed,
                prompt: 'a sample',
                width: 320,
                height: 180,
                seconds: 2,
                format,
              })
            : await renderAudio({ kind, seed, prompt: 'a sample', seconds: 2, style: 'music', format });
        const file = `${source}.${format}`;
        await writeFile(join(dir, file), media.bytes);
        samples.push({ name: `${source} ${format}`, file, kind });
      }
    }
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
  }
  return samples;
}

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.html': 'text/html; charset=utf-8',
};

/** Serves `dir` (and an empty page at /) on 127.0.0.1; its origin. Byte ranges are answered, as media elements ask for them. */
export async function serveMediaSamples(dir: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    if (name === '') {
      res.writeHead(200, { 'content-type': TYPES['.html'] }).end('<!doctype html><title>media</title>');
      return;
    }
    if (!/^[a-z]+\.[a-z0-9]+$/.test(name)) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(dir, name)).then(
      (bytes) => {
        const type = TYPES[extname(name)] ?? 'application/octet-stream';
        const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
        if (range && (range[1] || range[2])) {
          const start = range[1] ? Number(range[1]) : Math.max(0, bytes.length - Number(range[2]));
          const end = range[1] && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
          res.writeHead(206, {
            'content-type': type,
            'content-range': `bytes ${start}-${end}/${bytes.length}`,
            'accept-ranges': 'bytes',
          });
          res.end(bytes.subarray(start, end + 1));
          return;
        }
        res.writeHead(200, { 'content-type': type, 'accept-ranges': 'bytes' }).end(bytes);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { origin: `http://127.0.0.1:${address.port}`, server };
}

export interface PlayResult {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * Runs in the page (its source is passed to a driver's evaluate): each sample in a muted media element,
 * which must load its first frame, play, and advance its clock.
 */
export const PLAY_IN_PAGE = `async (samples) => Promise.all(samples.map((sample) => new Promise((resolve) => {
  const el = document.createElement(sample.kind);
  el.muted = true;
  el.preload = 'auto';
  const done = (ok, detail) => { clearTimeout(timer); el.remove(); resolve({ name: sample.name, ok, detail }); };
  const timer = setTimeout(() => done(false, 'timed out, readyState ' + el.readyState + ', networkState ' + el.networkState), 20000);
  el.addEventListener('error', () => done(false, 'media error ' + (el.error ? el.error.code + ' ' + el.error.message : '')));
  el.addEventListener('loadeddata', () => {
    const start = el.currentTime;
    el.play().then(
      () => setTimeout(() => done(el.currentTime > start, 'duration ' + el.duration.toFixed(2) + ' s, played to ' + el.currentTime.toFixed(2) + ' s'), 600),
      (e) => done(false, 'play() refused: ' + e.message),
    );
  }, { once: true });
  el.src = sample.url;
  document.body.append(el);
})))`;

/** The samples' URLs for PLAY_IN_PAGE. */
export const playArgs = (origin: string, samples: MediaSample[]) =>
  samples.map(({ name, file, kind }) => ({ name, kind, url: `${origin}/${file}` }));
