import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

// Every text file of the build is also written compressed beside itself, at the best ratio, once:
// `x.js.br` (Brotli, quality 11) and `x.js.gz` (gzip, level 9). The studio's server sends the one the
// browser accepts (server/studio-server.ts), as nginx's brotli_static and gzip_static or a CDN do; a
// server compressing each answer on the fly has to pick a faster, weaker level. Brotli makes the first
// load's script about 14 % smaller than gzip does (docs/benchmarks.md "bundle"); every browser the
// studio supports accepts it.

/** What is worth compressing: text. Source maps are never served (server/studio-server.ts). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
/** Below this a compressed answer saves less than its headers cost (the on-the-fly threshold too). */
export const MIN_BYTES = 1024;

/** The compressed copies of `file`, written beside it when they are smaller; returns those written. */
export function precompressFile(file: string): string[] {
  const data = readFileSync(file);
  if (data.length < MIN_BYTES) return [];
  const copies: [string, Buffer][] = [
    [
      `${file}.br`,
      brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
    ],
    [`${file}.gz`, gzipSync(data, { level: 9 })],
  ];
  const written: string[] = [];
  for (const [name, bytes] of copies) {
    if (bytes.length >= data.length) continue;
    writeFileSync(name, bytes);
    written.push(name);
  }
  return written;
}

/** Every compressible file under `dir`, compressed beside itself. */
export function precompressDir(dir: string): string[] {
  const written: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = join(dir, entry);
    if (COMPRESSIBLE.test(entry) && statSync(file).isFile()) written.push(...precompressFile(file));
  }
  return written;
}

/** The last step of the build (after the prerender, the first paint's rewrite and the worker). */
export function precompress(): Plugin {
  let distDir: string;
  return {
    name: 'media-studio:precompress',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      distDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      handler: () => void precompressDir(distDir),
    },
  };
}
