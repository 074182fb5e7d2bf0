import type { EndpointGroup } from './rate-limiter';

// What one API call is, before anything is sent: its method, path and query, body, headers, whether it
// may be repeated, and how its answer is parsed. The URL and headers are built here for the request
// sent and for "Copy request" alike, so the two cannot differ.

/** The parts of an upload's progress the client reports. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export type Body = { kind: 'json'; text: string } | { kind: 'blob'; blob: Blob; contentType: string };

export interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  group: EndpointGroup;
  body?: Body;
  headers?: Record<string, string>;
  /**
   * Whether the request may be repeated after a failure that may have reached the service (dropped
   * connection, timeout, 502, 504). False for charging POSTs without an Idempotency-Key.
   */
  repeatable: boolean;
  /** With `repeatable`, how many repeats after such a failure (default: the whole retry schedule). */
  maxRepeats?: number;
  timeoutMs?: number;
  onProgress?: (progress: UploadProgress) => void;
  parse: (json: unknown, status: number) => T;
}

/** The exact bytes sent as a JSON body; describeRequest uses the same function so "Copy request" is exact. */
export const serializeBody = (body: unknown): string => JSON.stringify(body);

export const jsonBody = (body: unknown): Body => ({ kind: 'json', text: serializeBody(body) });

export function requestUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, value);
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

export function requestHeaders(
  body: Body | undefined,
  extra: Record<string, string>,
  authorization: string,
): Record<string, string> {
  const headers: Record<string, string> = { Authorization: authorization };
  if (body?.kind === 'json') headers['Content-Type'] = 'application/json';
  if (body?.kind === 'blob') headers['Content-Type'] = body.contentType;
  return { ...headers, ...extra };
}
