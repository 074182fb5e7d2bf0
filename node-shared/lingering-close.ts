import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A lingering close's bounds: it ends with the client's body, a pause this long, or these totals. */
const LINGER_QUIET_MS = 1_000;
const LINGER_MAX_MS = 10_000;
/** Covers an upload a little over the API's 100 MB, the body most often refused early. */
const LINGER_MAX_BYTES = 256 * 1024 * 1024;

/**
 * For an answer given before the request's body has all arrived (an early 413 or 401): Node's server
 * then answers `Connection: close` and closes the socket as soon as the answer is written. With the
 * client still sending, that close resets the connection, and the reset can reach the client (or a
 * proxy in front) before it has read the answer: it sees a broken pipe, a proxy answers 502, instead of
 * the 413. Here only the sending side closes after the answer (the client reads it, then the end),
 * while what the client still sends is read and dropped until its body ends, it pauses, or the bounds
 * above; only then does the socket go. A lingering close, as nginx and Apache make.
 *
 * Node's server ends such a connection through the socket's destroySoon() once the answer is written,
 * so that is the call this replaces, for this socket only.
 */
export function lingeringClose(incoming: IncomingMessage, outgoing: ServerResponse): void {
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  if (typeof socket.destroySoon !== 'function' || socket.destroyed) return;
  const own = Object.prototype.hasOwnProperty.call(socket, 'destroySoon');
  if (own) return; // already lingering
  let started = false;
  let dropped = 0;
  let quiet: NodeJS.Timeout | undefined;
  let cap: NodeJS.Timeout | undefined;
  const finish = () => {
    clearTimeout(quiet);
    clearTimeout(cap);
    socket.destroy();
  };
  const pause = () => {
    clearTimeout(quiet);
    quiet = setTimeout(finish, LINGER_QUIET_MS);
  };
  socket.destroySoon = () => {
    if (started) return;
    started = true;
    socket.once('close', () => {
      clearTimeout(quiet);
      clearTimeout(cap);
    });
    socket.end();
    pause();
    cap = setTimeout(finish, LINGER_MAX_MS);
    socket.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_MAX_BYTES) finish();
      else pause();
    });
    socket.once('end', finish);
    // The request's own reader may have stopped: the bytes still have to be taken off the wire.
    incoming.resume();
    socket.resume();
  };
  // Node asks for the close while the answer finishes (before this listener): a connection kept alive
  // after all goes back to the usual close for its next answers.
  outgoing.once('finish', () => {
    if (!started) delete (socket as { destroySoon?: unknown }).destroySoon;
  });
}
