import { z } from 'zod';

// spec 2 "Key (as returned by GET /me)". Exactly one of user and team is present.
export const MeSchema = z.object({
  key: z.object({
    id: z.string(),
    prefix: z.string(),
    label: z.string(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    dailyCreditCap: z.number().nullable(),
    creditsSpentToday: z.number(),
    creditsRemainingToday: z.number().nullable(),
  }),
  project: z.object({
    id: z.string().nullable(),
    name: z.string().nullable(),
    bound: z.boolean().optional(),
  }),
  user: z.object({ creditBalance: z.number() }).optional(),
  team: z.object({ id: z.string(), creditBalance: z.number() }).optional(),
  limits: z.object({
    tasksPerMin: z.number(),
    uploadsPerMin: z.number(),
    uploadPollPerMin: z.number(),
  }),
});
export type Me = z.infer<typeof MeSchema>;
