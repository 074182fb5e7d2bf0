import type { z } from 'zod/mini';
import type { ConfigSchema } from './config-schema';
import { nextTask } from '../lib/next-task';

// Runtime configuration: the built studio is static files, so whoever hosts it (npm start, or any
// static host) says which API to default to by serving /config.json next to index.html.
/** The Base URL when /config.json names none (and on the prerendered connect screen, before it is read). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

export type StudioConfig = z.infer<typeof ConfigSchema> & { defaultBaseUrl: string };

/** /config.json, checked by its schema (config-schema.ts, loaded at the same time as the file). */
export async function loadConfig(): Promise<StudioConfig> {
  await nextTask(); // not in the task of the first render (lib/next-task.ts)
  const schema = import('./config-schema').then((m) => m.ConfigSchema);
  let raw: unknown = {};
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    if (res.ok) raw = await res.json();
  } catch {
    // No file, or not JSON: the defaults.
  }
  const ConfigSchema = await schema;
  let config: z.infer<typeof ConfigSchema>;
  try {
    config = ConfigSchema.parse(raw);
  } catch {
    config = ConfigSchema.parse({});
  }
  return { ...config, defaultBaseUrl: config.defaultBaseUrl ?? DEFAULT_BASE_URL };
}
