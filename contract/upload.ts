import { z } from 'zod/mini';

// api-notes §4 POST /uploads: the only content types accepted.
export const UPLOAD_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/quicktime',
] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

// api-notes §2 "Upload" and api-notes §3 upload states: one shape per status.
const UploadReadySchema = z.object({
  status: z.literal('ready'),
  url: z.string(),
  size: z.optional(z.number()),
  contentType: z.string(),
});
const UploadProcessingSchema = z.object({
  status: z.literal('processing'),
  uploadId: z.string(),
  pollUrl: z.string(),
});
const UploadBlockedSchema = z.object({
  status: z.literal('blocked'),
  labels: z.string(),
  error: z.optional(z.string()),
});
const UploadErroredSchema = z.object({
  status: z.literal('errored'),
  reason: z.string(),
});
export const UploadSchema = z.discriminatedUnion('status', [
  UploadReadySchema,
  UploadProcessingSchema,
  UploadBlockedSchema,
  UploadErroredSchema,
]);
export type Upload = z.infer<typeof UploadSchema>;

/** api-notes §4 POST /uploads: 200 ready (image, audio) or 202 processing (video); other states only come from polling. */
export const UploadCreatedSchema = z.discriminatedUnion('status', [
  UploadReadySchema,
  UploadProcessingSchema,
]);
export type UploadCreated = z.infer<typeof UploadCreatedSchema>;
