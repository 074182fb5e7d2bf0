import { z } from 'zod/mini';

/**
 * What /config.json says when the studio's server runs a team space: the WebSocket path on the
 * studio's own origin, and the Base URL the server checks keys against (the studio offers the team
 * space only when its own Base URL is that one, since the server would refuse keys of another API).
 */
export const TeamSpaceConfigSchema = z.object({
  path: z.string(),
  apiBaseUrl: z.string(),
  /**
   * The server's limit of one room's document, in bytes (TEAM_SPACE_MAX_DOCUMENT_BYTES): each member's
   * share of a room is a part of it (contract/team-doc.ts memberShareBytes), which the studio counts to
   * stop sharing before the server refuses. Absent (an older server, or one that does not say): unknown.
   */
  maxDocumentBytes: z.catch(z.optional(z.int().check(z.positive())), undefined),
});
export type TeamSpaceConfig = z.infer<typeof TeamSpaceConfigSchema>;
