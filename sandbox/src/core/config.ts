import { randomBytes } from 'node:crypto';
import type { CatalogFixture } from './catalog/types';
import type { MediaWorks } from './media-works';

export interface SandboxConfig {
  /** Origin written into media URLs, e.g. http://127.0.0.1:4010 */
  publicUrl: string;
  taskMs: number;
  moderationMs: number;
  /** false only for benchmarks that measure raw throughput (SANDBOX_RATE_LIMITS=off). */
  rateLimits?: boolean;
  fixture?: CatalogFixture;
  /** Folder for media bytes (uploads, renders): the data folder, or a temporary one (README: Storage). */
  mediaDir: string;
  /** Bytes of media kept in memory (default 64 MiB). */
  mediaMemoryBytes?: number;
  /** Bytes of media kept on disk (default 2 GiB); past it the oldest files go. */
  mediaDiskBytes?: number;
  /**
   * The demo keys' values by name (a data folder keeps them); any name missing or malformed gets a new
   * random key (core/keys.ts).
   */
  demoKeys?: Record<string, string>;
  /** Rendering, probing and decoding: media/works.ts, handed in where the sandbox is built (server.ts). */
  works: MediaWorks;
}

/** A media path made absolute on the public origin (which server.ts sets once it listens). */
export const absoluteUrl = (config: SandboxConfig, path: string): string =>
  path.startsWith('/') ? `${config.publicUrl}${path}` : path;

export const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;
