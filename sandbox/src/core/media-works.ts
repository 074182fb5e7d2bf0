import type { MediaProbe, MediaSpec, RenderedMedia } from './media-types';

// The port through which core asks for media work: core never decodes or encodes an image, video or
// sound itself. media/works.ts implements it with sharp and ffmpeg; server.ts hands it to the Sandbox.

/** Whether uploaded bytes are what their Content-Type says (api-notes §4 POST /uploads). */
export type UploadVerdict =
  | { ok: true; probe: MediaProbe }
  /** Not of the type at all, or over a limit (`extra` then says which): refused at once (400). */
  | { ok: false; reason: string; extra?: Record<string, unknown> }
  /** A video that has the right signature but cannot be read: it ends `errored` (api-notes §3). */
  | { ok: 'unreadable'; reason: string; probe: MediaProbe };

/** An upload body on disk, as the HTTP layer streamed it (core/uploads.ts ReceivedUpload). */
export interface UploadFile {
  path: string;
  size: number;
  /** Its first bytes (at most UPLOAD_HEAD_BYTES): enough for any file signature and a PNG's header. */
  head: Buffer;
}

/** What an output's plan needs to know of its source image. */
export interface SourceImage {
  width?: number;
  height?: number;
  /** Asked for only when the plan picks its format from the source's transparency. */
  opaque?: boolean;
}

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** An image read for describe-image: its displayed size and, when the pixels decode, a small copy of them. */
export interface ImageSample {
  /** Size of one frame, upright (EXIF orientation applied). */
  width: number;
  height: number;
  /** sRGB with alpha, at most `maxSide` on its longest side; null when the header reads but the pixels do not. */
  pixels: {
    data: Uint8Array;
    width: number;
    height: number;
    channels: number;
    /** Most frequent colour, entropy (bits) and sharpness (Laplacian stdev) of the sample. */
    dominant: Rgb;
    entropy: number;
    sharpness: number;
  } | null;
}

export interface MediaWorks {
  /** A task's output or a catalog asset. */
  render(spec: MediaSpec): Promise<RenderedMedia>;
  /** A brand's logo carrying its initials. */
  renderLogo(seed: string, text: string): Promise<RenderedMedia>;
  /** Reads the upload from its file (never the whole of it into memory); `head` is its first bytes. */
  verifyUpload(upload: UploadFile, contentType: string): Promise<UploadVerdict>;
  inspectSource(bytes: Buffer, options: { opacity: boolean }): Promise<SourceImage>;
  /** Throws when the bytes are not a decodable image. */
  sampleImage(bytes: Buffer, maxSide: number): Promise<ImageSample>;
}
