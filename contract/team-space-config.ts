import { z } from 'zod/mini';

/**
 * What /config.json says when the studio's server runs a team space: the WebSocket path on the
 * studio's own origin, and the Base URL the server checks keys against (the studio offers the team
 * space only when its own Base URL is that one, since the server would refuse keys of another API).
 */
export const TeamSpaceConfigSchema = z.object({
  path: z.string(),
  apiBaseUrl: z.string(),
});
export type TeamSpaceConfig = z.infer<typeof TeamSpaceConfigSchema>;
