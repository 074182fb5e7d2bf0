import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import linguiConfig from '../lingui.config';
import { MIN_BYTES } from '../scripts/precompress';
import { print, record, type Figure } from './results-file';

// Bundle size (docs/benchmarks.md): the JavaScript a first visit downloads (the entry module and what
// index.html's loader adds with it), gzipped, and all of it. Deterministic, so `--check` gates CI: at
// 79 KB, what the first load is now (78.8 KB) rounded up, so it cannot grow unnoticed; the target is
// 75 KB (docs/benchmarks.md "bundle" says what the rest is and what moving it would cost).

export const INITIAL_LIMIT_KB = 79;
/** The first load's target (the figure's), below the gate until it is met. */
const INITIAL_TARGET_KB = 75;

const dist = new URL('../dist/', import.meta.url);
const gz = (file: string) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length / 1024;
/** What the studio's server sends a browser that accepts Brotli: the build's copy (scripts/precompress.ts). */
const sent = (file: string) => {
  const copy = new URL(`${file}.br`, dist);
  return existsSync(copy) ? statSync(copy).size / 1024 : gz(file);
};
/** Files worth compressing that have no Brotli copy beside them: the server would gzip them on the fly. */
const uncompressed = (files: readonly string[]) =>
  files.filter((f) => statSync(new URL(f, dist)).size >= MIN_BYTES && !existsSync(new URL(`${f}.br`, dist)));

/** The chunks that start the connected studio: the key check's and the studio's (src/app/studio.tsx). */
const STUDIO_CHUNKS = [/^key-check-[\w-]+\.js$/, /^connected-studio-[\w-]+\.js$/];
/** The team space's libraries: loaded when a member turns the team space on, never to start the studio. */
const TEAM_SPACE_LIBRARIES = /\/node_modules\/(yjs|lib0|y-protocols|@hocuspocus)\//;

/** `start` and the chunks it imports statically (`from"./x.js"`, `import"./x.js"`), those of `skip` left out. */
export function staticClosure(start: string[], skip: readonly string[]): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file) || skip.includes(file)) return;
    seen.add(file);
    const code = readFileSync(new URL(`assets/${file}`, dist), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) walk(m[1]!);
  };
  start.forEach(walk);
  return [...seen];
}

/** The sources a chunk was built from, as its (hidden) source map names them. */
const sourcesOf = (file: string): string[] =>
  (JSON.parse(readFileSync(new URL(`assets/${file}.map`, dist), 'utf8')) as { sources: string[] }).sources;

/**
 * The way to the studio: what a returning key loads beyond the first load to draw the connected studio,
 * and which of those chunks hold the team space's libraries (none should: docs/benchmarks.md "bundle").
 */
export function studioChunks(initial: readonly string[]): {
  files: string[];
  kb: number;
  /** As sent (Brotli). */
  sentKb: number;
  teamSpace: string[];
} {
  const all = readdirSync(new URL('assets/', dist));
  const starts = STUDIO_CHUNKS.map((pattern) => {
    const file = all.find((f) => pattern.test(f));
    if (!file) throw new Error(`No chunk like ${pattern} in dist/assets: run \`npm run build\` first.`);
    return file;
  });
  const files = staticClosure(
    starts,
    initial.map((f) => f.replace(/^assets\//, '')),
  );
  return {
    files,
    kb: files.reduce((sum, f) => sum + gz(`assets/${f}`), 0),
    sentKb: files.reduce((sum, f) => sum + sent(`assets/${f}`), 0),
    teamSpace: files.filter((f) => sourcesOf(f).some((source) => TEAM_SPACE_LIBRARIES.test(source))),
  };
}

/**
 * The first load (`assets/…` paths): index.html's loader names the entry and its preloads
 * (scripts/first-paint.ts), in its inline script, not in script or link tags.
 */
export function initialFiles(): string[] {
  const html = readFileSync(new URL('index.html', dist), 'utf8');
  const initial = [...new Set([...html.matchAll(/\/(assets\/[\w.-]+\.js)\b/g)].map((m) => m[1]!))];
  if (initial.length === 0) throw new Error('No script found in dist/index.html: run `npm run build` first.');
  return initial;
}

export function measureBundle(): Record<string, Figure> {
  const initial = initialFiles();
  const all = readdirSync(new URL('assets/', dist)).filter((f) => f.endsWith('.js'));
  const initialKb = initial.reduce((sum, f) => sum + gz(f), 0);
  const totalKb = all.reduce((sum, f) => sum + gz(`assets/${f}`), 0);
  const round = (n: number) => Math.round(n * 10) / 10;
  const studio = studioChunks(initial);
  // Each language's catalog is a chunk of its own (src/lib/i18n/i18n.ts), loaded only when it is chosen.
  const catalogs = Object.fromEntries(
    linguiConfig.locales
      .filter((tag) => tag !== linguiConfig.sourceLocale)
      .flatMap((tag) => {
        const file = all.find((f) => f.startsWith(`${tag}-`) && /^[\w-]+-[\w-]{8}\.js$/.test(f));
        if (!file) return [];
        const figure: Figure = {
          value: round(gz(`assets/${file}`)),
          unit: 'KB',
          target: 'reported',
          ok: true,
          note: `the ${tag} catalog, loaded when that language is chosen`,
        };
        return [[`catalog.${tag}`, figure]];
      }),
  );
  return {
    ...catalogs,
    initialJsGzip: {
      value: round(initialKb),
      unit: 'KB',
      target: `<= ${INITIAL_TARGET_KB} KB`,
      ok: initialKb <= INITIAL_TARGET_KB,
      note: `${initial.length} files; the CI gate (check:bundle) at ${INITIAL_LIMIT_KB} KB`,
    },
    initialJsSent: {
      value: round(initial.reduce((sum, f) => sum + sent(f), 0)),
      unit: 'KB',
      target: 'reported',
      ok: true,
      note: "the first load as the studio's server sends it to a browser that accepts Brotli (the build's copies)",
    },
    studioJsGzip: {
      value: round(studio.kb),
      unit: 'KB',
      target: 'reported',
      // The team space's libraries are checked apart (`--check`): a figure cannot say which chunk holds them.
      ok: true,
      note: `${studio.files.length} files: the key check's and the connected studio's chunks with what they import, beyond the first load${studio.teamSpace.length ? `; the team space's libraries in ${studio.teamSpace.join(', ')}` : ", none of them the team space's"}`,
    },
    studioJsSent: {
      value: round(studio.sentKb),
      unit: 'KB',
      target: 'reported',
      ok: true,
      note: 'the way to the studio (studioJsGzip) as sent, Brotli',
    },
    totalJsGzip: {
      value: round(totalKb),
      unit: 'KB',
      target: 'reported',
      ok: true,
      note: `${all.length} files`,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = measureBundle();
  print('Bundle', figures);
  if (process.argv.includes('--check')) {
    if (figures.initialJsGzip!.value! > INITIAL_LIMIT_KB) {
      console.error(`\nThe initial JavaScript is over ${INITIAL_LIMIT_KB} KB gzipped.`);
      process.exit(1);
    }
    const initial = initialFiles();
    const studio = studioChunks(initial);
    const missing = uncompressed([...initial, ...studio.files.map((f) => `assets/${f}`)]);
    if (missing.length > 0) {
      console.error(
        `\nNo Brotli copy beside ${missing.join(', ')}: the build's last step (scripts/precompress.ts) did not run.`,
      );
      process.exit(1);
    }
    if (studio.teamSpace.length > 0) {
      console.error(
        `\nThe studio's start loads the team space's libraries (Yjs, Hocuspocus) in ${studio.teamSpace.join(', ')}: ` +
          'they belong in the chunk loaded when a member turns the team space on (src/app/team-space-code.ts).',
      );
      process.exit(1);
    }
  } else {
    record('bundle', figures);
  }
}
