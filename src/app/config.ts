import { z } from 'zod';

// Runtime configuration: the built studio is static files, so the server that hosts it (npm start,
// or any static host) can say which API to default to by serving /config.json next to index.html.
const ConfigSchema = z.object({
  defaultBaseUrl: z.string().url().default('http://127.0.0.1:4010/v1'),
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
