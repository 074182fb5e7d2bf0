import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

// The build's compressed copies (precompress.ts), which the studio's server sends as they are.

const dist = mkdtempSync(join(tmpdir(), 'precompress-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));
mkdirSync(join(dist, 'assets'));
const script = `export const words = ${JSON.stringify('a studio for images, video and sound '.repeat(200))};\n`;
writeFileSync(join(dist, 'assets', 'index-abc.js'), script);
writeFileSync(join(dist, 'assets', 'index-abc.js.map'), JSON.stringify({ mappings: 'AAAA;'.repeat(2000) }));
writeFileSync(
  join(dist, 'index.html'),
  `<!doctype html><title>Media Studio</title>${'<p>x</p>'.repeat(300)}`,
);
writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
writeFileSync(join(dist, 'pwa-192.png'), Buffer.alloc(4096, 7));
const written = precompressDir(dist);

describe('the build’s compressed copies', () => {
  it('are Brotli and gzip of the same bytes, for every script, stylesheet and page, in every folder', () => {
    for (const file of ['assets/index-abc.js', 'index.html']) {
      const original = readFileSync(join(dist, file));
      expect(brotliDecompressSync(readFileSync(join(dist, `${file}.br`)))).toEqual(original);
      expect(gunzipSync(readFileSync(join(dist, `${file}.gz`)))).toEqual(original);
    }
    expect(written.toSorted()).toEqual(
      ['assets/index-abc.js.br', 'assets/index-abc.js.gz', 'index.html.br', 'index.html.gz'].map((f) =>
        join(dist, f),
      ),
    );
  });

  it('Brotli is the smaller of the two', () => {
    const size = (f: string) => readFileSync(join(dist, f)).length;
    expect(size('assets/index-abc.js.br')).toBeLessThan(size('assets/index-abc.js.gz'));
  });

  it('leave out source maps (never served), images, and files too small to gain', () => {
    for (const file of ['assets/index-abc.js.map', 'pwa-192.png', 'favicon.svg'])
      for (const suffix of ['.br', '.gz'])
        expect(existsSync(join(dist, file + suffix)), file + suffix).toBe(false);
  });
});
