import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import { linguiPlugins } from '../scripts/i18n/vite-lingui';

// A bench's own page (bench/zip-page/, bench/report-page/): built by Vite from the studio's real modules
// (minified, as shipped) but outside the studio's bundle, and served from a spare port (127.0.0.1 is a
// secure context: the private file system works there).

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
};

/** Builds the page whose index.html is in `root` and serves it until `close`. */
export async function servePage(
  root: string,
  prefix: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    // The studio's words are Lingui macros, compiled as the studio's build compiles them.
    plugins: [...linguiPlugins()],
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^\/+/,
      '',
    );
    const file = join(outDir, path || 'index.html');
    if (!file.startsWith(outDir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
