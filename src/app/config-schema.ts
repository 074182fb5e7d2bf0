// The zod settings first: the API's schemas may not be loaded yet when /config.json is read (the first screen
// loads no API schema).
import '../zod-config';
import { z } from 'zod/mini';
import { TeamSpaceConfigSchema } from '../../contract/team-space-config';

// /config.json as the studio reads it: a chunk of its own, loaded beside the file, so the validation
// library is not evaluated with the first screen (to keep total blocking time low).
export const ConfigSchema = z.object({
  /** Absent: config.ts's DEFAULT_BASE_URL. */
  defaultBaseUrl: z.optional(z.string()),
  /** Set when the studio runs beside a sandbox: the connect form offers its demo keys. */
  sandboxKeysUrl: z.optional(z.string()),
  /**
   * The API origins this deployment's Content-Security-Policy lets the studio call (its connect-src),
   * besides the studio's own origin. `npm start` lists the default, the sandbox and STUDIO_API_ORIGINS;
   * a static host lists what its CSP allows. When given, the connect form says when a typed Base URL is
   * outside them (the browser would block it) and what to change. Absent: no such check.
   */
  apiOrigins: z.catch(z.optional(z.array(z.string())), undefined),
  /** Set when a team-space server runs beside the studio (its WebSocket path, the API it checks keys with). */
  teamSpace: z.catch(z.optional(TeamSpaceConfigSchema), undefined),
});
