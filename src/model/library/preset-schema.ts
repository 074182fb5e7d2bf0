import { z } from 'zod/mini';
import { TaskRequestSchema } from '../../../contract/task';

// A preset as it is kept (presets.ts has the rest: fit, share links, the store). A module of its own so
// what only reads presets (the team space's library) does not bring the selection code with it.

export const PresetSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  connectionId: z.string().check(z.minLength(1)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  /** The model's, tool's or template's name when it was saved, to list presets across items. */
  itemName: z._default(z.string().check(z.maxLength(500)), ''),
  /** "image/default" for a model: saves the catalog a scan when the preset is applied. */
  category: z.optional(z.string().check(z.maxLength(100))),
  request: TaskRequestSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Preset = z.infer<typeof PresetSchema>;

/** A preset as it leaves this device (an export, a share link): no connection. */
export type PortablePreset = Omit<Preset, 'connectionId'>;
