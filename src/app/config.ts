import { z } from 'zod/mini';

// Runtime configuration: the built studio is static files, so whoever hosts it (npm start, or any
// static host) says which API to default to by serving /config.json next to index.html.
const ConfigSchema = z.object({
  defaultBaseUrl: z._default(z.string(), 'http://127.0.0.1:4010/v1'),
  /** Set when the studio runs beside a sandbox: the connect form offers its demo keys. */
  sandboxKeysUrl: z.optional(z.string()),
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
