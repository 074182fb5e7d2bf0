import { z } from 'zod/mini';

// api-notes §2 "Key (as returned by GET /me)". Exactly one of user and team is present.
export const MeSchema = z.object({
  key: z.object({
    id: z.string(),
    prefix: z.string(),
    label: z.string(),
    createdAt: z.string(),
    expiresAt: z.nullable(z.string()),
    dailyCreditCap: z.nullable(z.number()),
    creditsSpentToday: z.number(),
    creditsRemainingToday: z.nullable(z.number()),
  }),
  project: z.object({
    id: z.nullable(z.string()),
    name: z.nullable(z.string()),
    bound: z.optional(z.boolean()),
  }),
  user: z.optional(z.object({ creditBalance: z.number() })),
  team: z.optional(z.object({ id: z.string(), creditBalance: z.number() })),
  limits: z.object({
    tasksPerMin: z.number(),
    uploadsPerMin: z.number(),
    uploadPollPerMin: z.number(),
  }),
});
export type Me = z.infer<typeof MeSchema>;
