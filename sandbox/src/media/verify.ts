// Whether uploaded bytes are what their Content-Type says (api-notes §4 POST /uploads: "it must be the
// file's true type"). First the file's signature (magic bytes), then a decode: images are decoded in
// full by sharp; audio and video are opened by ffmpeg, which must find a stream of the right kind.
import sharp from 'sharp';
import { inMediaQueue } from './ffmpeg';
import { probeMediaFile } from './probe';
import type { UploadFile, UploadVerdict } from '../core/media-works';

/**
 * Images larger than this many pixels are refused (a decompression bomb fits in a small PNG: a 97 KB
 * 9999 x 9999 one cost 0.9 s of CPU to decode), by the size their header declares, before any decoding.
 */
const MAX_IMAGE_PIXELS = 50_000_000;

/** The width and height a PNG declares in its IHDR chunk (bytes 16-24, right after the signature). */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || ascii(bytes, 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const tooManyPixels = (width: number, height: number) => ({
  ok: false as const,
  reason: `The image is ${width} x ${height}: more than ${MAX_IMAGE_PIXELS / 1_000_000} million pixels.`,
  extra: { maxPixels: MAX_IMAGE_PIXELS },
});

const ascii = (bytes: Buffer, from: number, to: number) => bytes.subarray(from, to).toString('latin1');
const riff = (bytes: Buffer, form: string) =>
  (ascii(bytes, 0, 4) === 'RIFF' || ascii(bytes, 0, 4) === 'RF64') && ascii(bytes, 8, 12) === form;
const ebml = (bytes: Buffer) => bytes.readUInt32BE(0) === 0x1a45dfa3;
/** ISO base media (MP4, QuickTime): a box type in bytes 4-8. */
const isoBox = (bytes: Buffer) =>
  ['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot'].includes(ascii(bytes, 4, 8));

const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
  'image/webp': (b) => riff(b, 'WEBP'),
  'audio/wav': (b) => riff(b, 'WAVE'),
  // An ID3 tag, or straight into an MPEG audio frame (11 sync bits).
  'audio/mpeg': (b) => ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0),
  'audio/ogg': (b) => ascii(b, 0, 4) === 'OggS',
  'audio/webm': ebml,
  'video/webm': ebml,
  'video/mp4': isoBox,
  'video/quicktime': isoBox,
};

/** sharp's name for each image type's format. */
const SHARP_FORMAT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const NAME: Record<string, string> = {
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'image/gif': 'a GIF image',
  'image/webp': 'a WebP image',
  'audio/wav': 'WAV audio',
  'audio/mpeg': 'MP3 audio',
  'audio/ogg': 'Ogg audio',
  'audio/webm': 'WebM audio',
  'video/webm': 'a WebM video',
  'video/mp4': 'an MP4 video',
  'video/quicktime': 'a QuickTime video',
};

/**
 * Checks an upload from its file: the signature and a PNG's declared size from its first bytes, then a
 * decode that reads the file itself (sharp, ffmpeg), so no upload is ever held whole in memory. Decodes
 * wait their turn in the media queue (ffmpeg.ts), which bounds the pixels in memory at once too.
 */
export async function verifyUpload(upload: UploadFile, contentType: string): Promise<UploadVerdict> {
  const { head: bytes, path } = upload;
  const name = Object.hasOwn(NAME, contentType) ? NAME[contentType]! : contentType;
  const notIt = {
    ok: false as const,
    reason: `The file is not ${name} (Content-Type ${contentType}); send its true type.`,
  };
  const signature = Object.hasOwn(SIGNATURES, contentType) ? SIGNATURES[contentType] : undefined;
  if (!signature || upload.size < 12 || bytes.length < 12 || !signature(bytes)) return notIt;

  if (contentType.startsWith('image/')) {
    // The PNG header first, without sharp; then, for every format, the size sharp reads from the
    // header (metadata() decodes no pixel), both before the full decode below.
    const png = contentType === 'image/png' ? pngSize(bytes) : null;
    if (png && png.width * png.height > MAX_IMAGE_PIXELS) return tooManyPixels(png.width, png.height);
    try {
      const image = sharp(path, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS });
      const meta = await image.metadata();
      if (meta.format !== SHARP_FORMAT[contentType]) return notIt;
      if (meta.width * meta.height > MAX_IMAGE_PIXELS) return tooManyPixels(meta.width, meta.height);
      await inMediaQueue(() => image.stats()); // decodes every pixel: a truncated or corrupt file fails here
      const { width, height } = meta.autoOrient;
      return { ok: true, probe: width > 0 && height > 0 ? { width, height } : {} };
    } catch (err) {
      const message = err instanceof Error ? err.message : '';
      return {
        ok: false,
        reason: /pixel limit/i.test(message)
          ? `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} million pixels.`
          : `The file could not be decoded as ${name}.`,
        ...(/pixel limit/i.test(message) ? { extra: { maxPixels: MAX_IMAGE_PIXELS } } : {}),
      };
    }
  }

  const probe = await probeMediaFile(path, contentType);
  const wanted = contentType.startsWith('audio/') ? 'audio' : 'video';
  if (probe.streams?.[wanted]) return { ok: true, probe };
  const reason = `The file has no readable ${wanted} stream (${name} expected).`;
  return wanted === 'video' ? { ok: 'unreadable', reason, probe } : { ok: false, reason };
}
