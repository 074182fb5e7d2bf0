import type { SandboxConfig } from './config';
import type { MediaStore } from './media-store';

/** The path of a service-hosted URL, or null for anything else (api-notes §2: media params take hosted URLs only). */
export function hostedPath(config: SandboxConfig, media: MediaStore, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(config.publicUrl).origin || !parsed.pathname.startsWith('/cdn/')) return null;
  return media.has(parsed.pathname) ? parsed.pathname : null;
}
