import type { Context } from 'hono';
import type { MediaFile } from '../core/media-store';
import { SandboxError } from '../core/errors';

// Serves /cdn/ files like a CDN would: true Content-Type, byte ranges (video seeking), long caching.
// SVG outputs are untrusted: a CSP sandbox stops any script inside them even when opened directly.
export function serveMedia(c: Context, file: MediaFile): Response {
  const total = file.bytes.length;
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('range') ?? '');
  let status = 200;
  let body = file.bytes;
  if (range && (range[1] || range[2])) {
    const start = range[1] ? Number(range[1]) : Math.max(0, total - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), total - 1) : total - 1;
    if (start >= total || start > end) {
      // The api-notes §7 error shape, like every other refusal of the sandbox.
      const body = new SandboxError(416, 'range_not_satisfiable', `The file has ${total} bytes.`).toBody();
      return new Response(JSON.stringify(body), {
        status: 416,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Range': `bytes */${total}` },
      });
    }
    status = 206;
    body = file.bytes.subarray(start, end + 1);
    headers['Content-Range'] = `bytes ${start}-${end}/${total}`;
  }
  headers['Content-Length'] = String(body.length);
  return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status, headers });
}
