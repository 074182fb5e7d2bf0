import { describe, expect, it } from 'vitest';
import { downloadName, extensionFor, urlExtension } from './download-name';
import { makeEntry } from '../../test/gallery-test-utils';

describe('extensionFor', () => {
  it.each([
    ['image/png', 'png'],
    ['image/jpeg', 'jpg'],
    ['image/webp', 'webp'],
    ['image/gif', 'gif'],
    ['image/svg+xml', 'svg'],
    ['video/mp4', 'mp4'],
    ['video/webm', 'webm'],
    ['video/quicktime', 'mov'],
    ['audio/mpeg', 'mp3'],
    ['audio/wav', 'wav'],
    ['audio/x-wav', 'wav'],
    ['audio/wave', 'wav'],
    ['audio/ogg', 'ogg'],
    ['audio/webm', 'webm'],
  ])('%s -> %s', (type, ext) => {
    expect(extensionFor(type)).toBe(ext);
  });

  it('ignores parameters, case and spaces', () => {
    expect(extensionFor('image/PNG; charset=binary')).toBe('png');
    expect(extensionFor('  Audio/Ogg ; codecs=opus')).toBe('ogg');
  });

  it('is null for a missing or unknown type', () => {
    expect(extensionFor(null)).toBeNull();
    expect(extensionFor('')).toBeNull();
    expect(extensionFor('application/octet-stream')).toBeNull();
    expect(extensionFor('text/html')).toBeNull();
  });
});

describe('urlExtension', () => {
  it('reads the path, not the query or fragment', () => {
    expect(urlExtension('https://cdn.test/a/b.JPG?x=1.png#c.gif')).toBe('jpg');
    expect(urlExtension('https://cdn.test/a/b')).toBeNull();
  });

  it('trusts only media extensions', () => {
    expect(urlExtension('https://cdn.test/a/run.exe')).toBeNull();
    expect(urlExtension('https://cdn.test/a/page.html')).toBeNull();
  });
});

describe('downloadName', () => {
  const image = makeEntry('task_AbCdEfGhIjKl', { outputs: [{ url: 'https://cdn.test/o/abc.jpg' }] });

  it('takes the extension from the Content-Type, not the URL (api-notes §2: the URL extension is unreliable)', () => {
    expect(downloadName(image, 'image/png')).toBe('lumen-canvas-AbCdEfGh.png');
    expect(downloadName(image, 'image/jpeg')).toBe('lumen-canvas-AbCdEfGh.jpg');
  });

  it('ignores Content-Type parameters', () => {
    expect(downloadName(image, 'image/png; charset=binary')).toBe('lumen-canvas-AbCdEfGh.png');
  });

  it("falls back to the URL's extension only when the type is missing or unknown", () => {
    expect(downloadName(image, null)).toBe('lumen-canvas-AbCdEfGh.jpg');
    expect(downloadName(image, 'application/octet-stream')).toBe('lumen-canvas-AbCdEfGh.jpg');
    const bare = makeEntry('task_x1', { outputs: [{ url: 'https://cdn.test/o/blob' }] });
    expect(downloadName(bare, undefined)).toBe('lumen-canvas-x1.bin');
  });

  it('removes slashes, dots, control and bidi characters and limits the length', () => {
    const nasty = makeEntry('task_../../etc\u0000', {
      meta: { title: '../../evil\u0000\u202Egnp.exe\\name/with\nlines' + 'x'.repeat(300) },
    });
    const name = downloadName(nasty, 'image/png');
    expect(name).not.toMatch(/[/\\\u202a-\u202e]/);
    expect([...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)).toBe(false);
    expect(name.endsWith('.png')).toBe(true);
    expect(name.split('.')).toHaveLength(2);
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name.startsWith('evil-gnp-exe-name-with-lines')).toBe(true);
  });

  it('keeps letters of other scripts and falls back when the title has none', () => {
    expect(downloadName(makeEntry('task_k9', { meta: { title: 'Ukiyo 浮世絵' } }), 'image/webp')).toBe(
      'ukiyo-浮世絵-k9.webp',
    );
    expect(downloadName(makeEntry('task_k9', { meta: { title: '***' } }), 'audio/mpeg')).toBe(
      'media-studio-k9.mp3',
    );
  });
});
