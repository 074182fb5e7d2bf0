import { z } from 'zod/mini';

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const TaskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;
const TERMINAL_STATUSES: readonly TaskStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminal = (s: TaskStatus) => TERMINAL_STATUSES.includes(s);

/** One param's value as a request carries it (a board's cells and links hold the same). */
export const ParamValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number(), z.boolean()])),
]);
export type ParamValue = z.infer<typeof ParamValueSchema>;

/** api-notes §4 POST /tasks and POST /quote body. Selector exclusivity is a server rule, not a shape rule. */
export const TaskRequestSchema = z.object({
  interfaceId: z.optional(z.string()),
  versionId: z.optional(z.string()),
  aiTool: z.optional(z.string()),
  template: z.optional(z.string()),
  params: z.record(z.string(), ParamValueSchema),
});
export type TaskRequest = z.infer<typeof TaskRequestSchema>;

export const TaskCreatedSchema = z.object({
  taskId: z.string(),
  status: TaskStatusSchema,
  modelId: z.string(),
  versionId: z.string(),
  idempotent: z.optional(z.boolean()),
});
export type TaskCreated = z.infer<typeof TaskCreatedSchema>;

export const TaskOutputSchema = z.object({
  url: z.string(),
  thumbnailUrl: z.optional(z.string()),
});

export const TaskSchema = z.object({
  taskId: z.string(),
  status: TaskStatusSchema,
  outputs: z._default(z.array(TaskOutputSchema), []),
  error: z._default(z.nullable(z.object({ message: z.string(), code: z.string() })), null),
  creditsCharged: z._default(z.number(), 0),
  createdAt: z.string(),
  completedAt: z._default(z.nullable(z.string()), null),
});
export type Task = z.infer<typeof TaskSchema>;
