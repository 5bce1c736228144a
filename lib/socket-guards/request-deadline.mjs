// The whole-request timeout of server.mjs, which follows the body's progress. Node's own
// requestTimeout counts wall time from the first byte, so a bulk job of the documented size (a
// million lines, tens of MB) sent at a steady pace got 408 after 60 s and was discarded, however
// fast it was arriving. Here a request still has REQUEST_TIMEOUT_MS to arrive, plus one second for
// every REQUEST_BODY_MIN_BYTES_PER_SECOND bytes already received: a body that keeps coming at
// that rate (or faster) is never cut, and a slow trickle still is (a client sending a few bytes
// a second holds its socket no longer than before, give or take the bytes it sent).
// Plain JavaScript: server.mjs runs outside the Next bundles.

/** What Node answers at its own request timeout, then the socket closes. */
const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** Milliseconds a request may take when `bytesReceived` bytes of it have arrived. */
export function allowedRequestMs(bytesReceived, { timeoutMs, minBytesPerSecond }) {
  return timeoutMs + Math.floor((bytesReceived / minBytesPerSecond) * 1000);
}

/**
 * Arms the deadline for one request, before it is handled; `checkEveryMs` is how often it looks
 * (Node's connectionsCheckingInterval does the same for its timeouts). A request whose body is
 * read (or that has none) is left alone. At the deadline: 408 when no answer has started, and the
 * socket is closed, so the handler's body stream ends in an error (a job's upload is discarded).
 */
export function followRequestProgress(req, res, { timeoutMs, minBytesPerSecond, checkEveryMs, now = Date.now }) {
  if (req.complete) return;
  const socket = req.socket;
  const started = now();
  const bytesAtStart = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) {
      stop();
      return;
    }
    const received = socket.bytesRead - bytesAtStart;
    if (now() - started <= allowedRequestMs(received, { timeoutMs, minBytesPerSecond })) return;
    stop();
    if (socket.writable && !res.headersSent) socket.write(REQUEST_TIMEOUT_RESPONSE);
    socket.destroy();
  }, checkEveryMs);
  timer.unref();
  // A keep-alive socket carries many requests: each one's listener goes when its request does.
  const stop = () => {
    clearInterval(timer);
    req.off('end', stop);
    socket.off('close', stop);
  };
  req.once('end', stop);
  socket.once('close', stop);
}
