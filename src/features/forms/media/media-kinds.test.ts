import { describe, expect, it } from 'vitest';
import { fileTypeOf, refusalFor, sniffContentType } from './media-kinds';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('media kinds', () => {
  it('reads the true type from the first bytes', () => {
    expect(sniffContentType(bytes([0x89], 'PNG\r\n'), 'image')).toBe('image/png');
    expect(sniffContentType(bytes([0xff, 0xd8, 0xff, 0xe0]), 'image')).toBe('image/jpeg');
    expect(sniffContentType(bytes('GIF89a'), 'image')).toBe('image/gif');
    expect(sniffContentType(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image')).toBe('image/webp');
    expect(sniffContentType(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'audio')).toBe('audio/wav');
    expect(sniffContentType(bytes('ID3', [4, 0]), 'audio')).toBe('audio/mpeg');
    expect(sniffContentType(bytes('OggS'), 'audio')).toBe('audio/ogg');
    expect(sniffContentType(bytes([0, 0, 0, 0x20], 'ftypisom'), 'video')).toBe('video/mp4');
    expect(sniffContentType(bytes([0, 0, 0, 0x14], 'ftypqt  '), 'video')).toBe('video/quicktime');
    expect(sniffContentType(bytes([0x1a, 0x45, 0xdf, 0xa3]), 'video')).toBe('video/webm');
    expect(sniffContentType(bytes([0x1a, 0x45, 0xdf, 0xa3]), 'audio')).toBe('audio/webm');
    expect(sniffContentType(bytes('hello'), 'image')).toBeNull();
  });

  it('reads the type from the bytes, beside what the browser says', async () => {
    const pngNamedJpg = new File([bytes([0x89], 'PNG\r\n\x1a\n')], 'photo.jpg', { type: 'image/jpeg' });
    expect(await fileTypeOf(pngNamedJpg, 'image')).toEqual({ declared: 'image/jpeg', sniffed: 'image/png' });
    const text = new File(['just text'], 'x.png', { type: 'image/png' });
    expect(await fileTypeOf(text, 'image')).toEqual({ declared: 'image/png', sniffed: null });
    expect((await fileTypeOf(new File(['x'], 'a.jpg', { type: 'image/jpg' }), 'image')).declared).toBe(
      'image/jpeg',
    );
    expect(sniffContentType(bytes([0, 0, 0, 8], 'moov'), 'video')).toBe('video/quicktime');
  });

  it('refuses, before any request, off-list types, the wrong kind, lying names and files over 100 MB', () => {
    const t = (sniffed: string | null, declared = sniffed ?? '') => ({ sniffed, declared });
    expect(refusalFor({ size: 10 }, t('image/png'), 'image')).toBeNull();
    expect(refusalFor({ size: 10 }, t('image/png', 'image/jpeg'), 'image')).toBeNull();
    expect(refusalFor({ size: 10 }, t(null, 'image/bmp'), 'image')).toMatch(
      /not accepted here \(image\/bmp\).*PNG, JPEG, WebP, GIF/,
    );
    expect(refusalFor({ size: 10 }, t('video/mp4'), 'image')).toMatch(/not accepted here \(video\/mp4\)/);
    expect(refusalFor({ size: 10 }, t(null, 'image/png'), 'image')).toMatch(
      /not accepted here \(its contents are not PNG\)/,
    );
    expect(refusalFor({ size: 0 }, t('image/png'), 'image')).toMatch(/empty/);
    expect(refusalFor({ size: 100 * 1024 * 1024 + 1 }, t('video/mp4'), 'video')).toMatch(/100 MB/);
    expect(refusalFor({ size: 100 * 1024 * 1024 + 1 }, t(null, 'image/png'), 'image')).toMatch(/100 MB/);
    expect(refusalFor({ size: 100 * 1024 * 1024 }, t('video/mp4'), 'video')).toBeNull();
  });
});
