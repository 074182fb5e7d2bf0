// What the core asks the media generators for, and what it gets back (media/ implements the port in
// media-works.ts). Generators are pure functions of the spec: the same spec gives the same bytes,
// different prompts/models/params give visibly or audibly different media.

export interface ImageSpec {
  kind: 'image';
  /** Mixed into every visual choice: the prompt, model id, version id and params. */
  seed: string;
  prompt: string;
  width: number;
  height: number;
  format: 'png' | 'jpeg';
  /** PNG with a transparent background (background removal). */
  transparent?: boolean;
  /** Start from this image (image-to-image, edit, upscale, background removal). */
  source?: Buffer;
}

export interface SvgSpec {
  kind: 'svg';
  seed: string;
  prompt: string;
  width: number;
  height: number;
  /** The `[svg-script]` trigger: embed a script and an onload handler, to prove that clients keep SVG inert. */
  scripted?: boolean;
}

export interface VideoSpec {
  kind: 'video';
  seed: string;
  prompt: string;
  width: number;
  height: number;
  seconds: number;
  format: 'mp4' | 'webm';
  /** First frame to animate from (first-last-frame, motion-control, lipsync). */
  source?: Buffer;
}

export interface AudioSpec {
  kind: 'audio';
  seed: string;
  prompt: string;
  seconds: number;
  style: 'speech' | 'music' | 'sfx';
  format: 'wav' | 'mp3' | 'ogg';
}

export type MediaSpec = ImageSpec | SvgSpec | VideoSpec | AudioSpec;

export interface RenderedMedia {
  bytes: Buffer;
  contentType: string;
  /** Video only: a JPEG poster frame. */
  thumbnail?: { bytes: Buffer; contentType: string };
}

/** What the sandbox learns of an uploaded file (pricing of input duration/frames). */
export interface MediaProbe {
  durationSec?: number;
  fps?: number;
  frames?: number;
  width?: number;
  height?: number;
  /** Audio and video: the kinds of stream the container holds (absent: none could be read). */
  streams?: { audio: boolean; video: boolean };
}
