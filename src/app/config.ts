import { z } from 'zod/mini';

// Runtime configuration: the built studio is static files, so whoever hosts it (npm start, or any
// static host) says which API to default to by serving /config.json next to index.html.
/** The Base URL when /config.json names none (and on the prerendered connect screen, before it is read). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

const ConfigSchema = z.object({
  defaultBaseUrl: z._default(z.string(), DEFAULT_BASE_URL),
  /** Set when the studio runs beside a sandbox: the connect form offers its demo keys. */
  sandboxKeysUrl: z.optional(z.string()),
  /**
   * The API origins this deployment's Content-Security-Policy lets the studio call (its connect-src),
   * besides the studio's own origin. `npm start` lists the default, the sandbox and STUDIO_API_ORIGINS;
   * a static host lists what its CSP allows. When given, the connect form says when a typed Base URL is
   * outside them (the browser would block it) and what to change. Absent: no such check.
   */
  apiOrigins: z.catch(z.optional(z.array(z.string())), undefined),
});
export type StudioConfig = z.infer<typeof ConfigSchema>;

export async function loadConfig(): Promise<StudioConfig> {
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    return ConfigSchema.parse(res.ok ? await res.json() : {});
  } catch {
    return ConfigSchema.parse({});
  }
}
