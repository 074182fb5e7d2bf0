import { t } from '@lingui/core/macro';
import { UPLOAD_MAX_BYTES } from '../../../../contract/upload';

// Which files a media param takes, and the checks made before any request (api-notes §4 POST /uploads:
// eleven content types, 100 MB at most, and the Content-Type must be the file's true type).

import type { MediaKind } from '../../../model/library/upload-library';
import { formatList } from '../../../lib/format';
export type { MediaKind };

export const ACCEPTED_TYPES: Record<MediaKind, readonly string[]> = {
  image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  video: ['video/mp4', 'video/webm', 'video/quicktime'],
  audio: ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/webm'],
};

const TYPE_NAMES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'video/mp4': 'MP4',
  'video/webm': 'WebM',
  'video/quicktime': 'QuickTime',
  'audio/mpeg': 'MP3',
  'audio/wav': 'WAV',
  'audio/ogg': 'Ogg',
  // Named in the list of audio types alone (acceptedNames), where WebM needs no "audio" beside it.
  'audio/webm': 'WebM',
};

export const acceptedNames = (kind: MediaKind): string =>
  formatList(ACCEPTED_TYPES[kind].map((t) => TYPE_NAMES[t] ?? t));

/** Browsers name some types differently from the spec's list. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
};

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/**
 * The content type the first bytes of a file show, or null when they show none the service takes.
 * @internal
 */
export function sniffContentType(bytes: Uint8Array, kind: MediaKind): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(bytes, 0, 4) === 'GIF8') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(bytes, 0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(bytes, 0, 3) === 'ID3') return 'audio/mpeg';
  if (bytes[0] === 0xff && bytes[1] !== undefined && (bytes[1] & 0xe0) === 0xe0) return 'audio/mpeg';
  if (ascii(bytes, 4, 8) === 'ftyp') return ascii(bytes, 8, 10) === 'qt' ? 'video/quicktime' : 'video/mp4';
  // Older QuickTime files open with another atom than ftyp.
  if (['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(ascii(bytes, 4, 8))) return 'video/quicktime';
  // Matroska / WebM carries audio or video: the field says which.
  if (starts(0x1a, 0x45, 0xdf, 0xa3)) return kind === 'audio' ? 'audio/webm' : 'video/webm';
  return null;
}

export interface FileType {
  /** What the browser says (normalised), '' when it says nothing. */
  declared: string;
  /** What the first bytes show, null when they show none of the spec's types. */
  sniffed: string | null;
}

/**
 * The file's true type (api-notes §4: the Content-Type must be the file's true type): read from its first
 * bytes, so a ".jpg" that is a PNG is sent as image/png. Only 16 bytes are read; the file itself is
 * streamed by the upload.
 */
export async function fileTypeOf(file: Blob, kind: MediaKind): Promise<FileType> {
  let sniffed: string | null = null;
  try {
    sniffed = sniffContentType(new Uint8Array(await file.slice(0, 16).arrayBuffer()), kind);
  } catch {
    sniffed = null;
  }
  const raw = file.type.toLowerCase().split(';')[0]!.trim();
  return { declared: ALIASES[raw] ?? raw, sniffed };
}

/** Why this file cannot go to this field, before any request; null when it can. */
export function refusalFor(file: { size: number }, type: FileType, kind: MediaKind): string | null {
  if (file.size === 0) return t`The file is empty.`;
  if (file.size > UPLOAD_MAX_BYTES) return t`The file is larger than the 100 MB limit.`;
  const accepted = ACCEPTED_TYPES[kind];
  const shown = type.sniffed ?? type.declared;
  if (!accepted.includes(type.sniffed ?? '')) {
    // Named like an accepted type, but the bytes are something else (a renamed document, a broken file).
    const names = acceptedNames(kind);
    if (!type.sniffed && accepted.includes(type.declared)) {
      const declared = TYPE_NAMES[type.declared] ?? type.declared;
      return t`This file type is not accepted here (its contents are not ${declared}). Accepted: ${names}.`;
    }
    return shown
      ? t`This file type is not accepted here (${shown}). Accepted: ${names}.`
      : t`This file type is not accepted here. Accepted: ${names}.`;
  }
  return null;
}
