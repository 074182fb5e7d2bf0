import { z } from 'zod/mini';
import { TaskOutputSchema, TaskStatusSchema } from '../../../contract/task';

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
  taskId: z.string().check(z.minLength(1)),
  connectionId: z.string().check(z.minLength(1)),
  request: z.object({
    interfaceId: z.optional(z.string()),
    versionId: z.optional(z.string()),
    aiTool: z.optional(z.string()),
    template: z.optional(z.string()),
    params: z.record(z.string(), ParamValue),
  }),
  meta: z.object({
    /** What ran: model name (and version name), tool name or template name. */
    title: z.string(),
    subtitle: z._default(z.string(), ''),
    kind: z.enum(['model', 'tool', 'template']),
    /** image, video or audio: decides how the output is shown. */
    mediaType: z.enum(['image', 'video', 'audio']),
    /** "image/default" for models, for filtering. */
    category: z.optional(z.string()),
    modelId: z.optional(z.string()),
    versionId: z.optional(z.string()),
    /** The quote's estimate when submitted; times the first poll (product-notes §3). */
    estimatedSeconds: z._default(z.nullable(z.number()), null),
    quotedCredits: z._default(z.nullable(z.number()), null),
    /** One click made several tasks ("Runs", "Variations"): they share this id; n of size. */
    batchId: z.optional(z.string()),
    batchIndex: z.optional(z.int().check(z.positive())),
    batchSize: z.optional(z.int().check(z.positive())),
    /** The known outputs it was made from (parents.ts): found in its params as it was sent. */
    parents: z.optional(
      z
        .array(
          z.object({
            taskId: z.string().check(z.minLength(1), z.maxLength(200)),
            outputIndex: z.int().check(z.gte(0)),
          }),
        )
        .check(z.maxLength(16)),
    ),
  }),
  status: TaskStatusSchema,
  outputs: z._default(z.array(TaskOutputSchema), []),
  error: z._default(z.nullable(z.object({ message: z.string(), code: z.string() })), null),
  creditsCharged: z._default(z.nullable(z.number()), null),
  /** ms since epoch, from the service's createdAt when known (else the submit time). */
  createdAt: z.number(),
  completedAt: z._default(z.nullable(z.number()), null),
  /** The last answer of GET /tasks/{id}, as sent (shown as raw JSON in the detail view). */
  raw: z.optional(z.unknown()),
  /** The Idempotency-Key it was created with (a compare cell finds its task by it). */
  idempotencyKey: z.optional(z.string()),
  /** Finished while the user was not looking: counts toward the title badge. */
  unseen: z._default(z.boolean(), false),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema> & {
  /**
   * Team space (docs/team-space.md): the member who made it, on a task that came from the team's shared
   * document (another member's); absent on this device's own. Such an entry is shown, never written to
   * this device's history, polled or re-sent here: its maker's studio polls it and shares what it sees.
   * Not in the schema: nothing read from IndexedDB or a file carries it. `unfollowed`: unfinished, and
   * no studio follows it any more (its maker has had no device in the room for a while: team-tasks.ts
   * UNFOLLOWED_AFTER_MS); it is left out of the team queue and the forecasts, and says so.
   */
  by?: { id: string; name: string; unfollowed?: boolean };
};
