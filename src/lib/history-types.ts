import { z } from 'zod';
import { TaskOutputSchema, TaskStatusSchema } from '../api/schemas/task';

// One task as the history keeps it: what was asked (the request and a readable summary), and what
// the service last said about it. Records read back from IndexedDB or an imported file are parsed
// with this schema, never trusted.

const ParamValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number(), z.boolean()])),
]);

export const HistoryEntrySchema = z.object({
  taskId: z.string().min(1),
  connectionId: z.string().min(1),
  request: z.object({
    interfaceId: z.string().optional(),
    versionId: z.string().optional(),
    aiTool: z.string().optional(),
    template: z.string().optional(),
    params: z.record(z.string(), ParamValue),
  }),
  meta: z.object({
    /** What ran: model name (and version name), tool name or template name. */
    title: z.string(),
    subtitle: z.string().default(''),
    kind: z.enum(['model', 'tool', 'template']),
    /** image, video or audio: decides how the output is shown. */
    mediaType: z.enum(['image', 'video', 'audio']),
    /** "image/default" for models, for filtering. */
    category: z.string().optional(),
    modelId: z.string().optional(),
    versionId: z.string().optional(),
    /** The quote's estimate when submitted; times the first poll (PRODUCT 3). */
    estimatedSeconds: z.number().nullable().default(null),
    quotedCredits: z.number().nullable().default(null),
    /** One click made several tasks ("Runs", "Variations"): they share this id; n of size. */
    batchId: z.string().optional(),
    batchIndex: z.number().int().positive().optional(),
    batchSize: z.number().int().positive().optional(),
  }),
  status: TaskStatusSchema,
  outputs: z.array(TaskOutputSchema).default([]),
  error: z.object({ message: z.string(), code: z.string() }).nullable().default(null),
  creditsCharged: z.number().nullable().default(null),
  /** ms since epoch, from the service's createdAt when known (else the submit time). */
  createdAt: z.number(),
  completedAt: z.number().nullable().default(null),
  /** The last answer of GET /tasks/{id}, as sent (shown as raw JSON in the detail view). */
  raw: z.unknown().optional(),
  /** The Idempotency-Key it was created with (a compare cell finds its task by it). */
  idempotencyKey: z.string().optional(),
  /** Finished while the user was not looking: counts toward the title badge. */
  unseen: z.boolean().default(false),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const HistoryExportSchema = z.object({
  format: z.literal('media-studio-history'),
  version: z.literal(1),
  exportedAt: z.string(),
  tasks: z.array(z.unknown()),
});
