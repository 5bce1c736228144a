// An oversized upload: the route answers 413 as soon as the body passes its
// limit, and Node then reads and discards the rest of the body so the connection can be reused. A
// client that never stops sending held the socket until it gave up (or REQUEST_TIMEOUT_MS). Now the
// rest of a refused body may take at most REFUSED_UPLOAD_DRAIN_MS; past that the socket is closed.
// Why not close at once: a client still writing its body (fetch, for one) then fails with EPIPE and
// never reads the 413, and a keep-alive client racing the close fails its next request.
// Plain JavaScript: server.mjs runs outside the Next bundles.

/** Milliseconds a refused upload's remaining body may take before its socket is closed. */
export const REFUSED_UPLOAD_DRAIN_MS = 3000;

/** Arms the bounded drain for this request; call once per request, before handling it. */
export function closeAfterRefusedUpload(req, res, drainMs = REFUSED_UPLOAD_DRAIN_MS) {
  res.on('finish', () => {
    if (res.statusCode !== 413 || req.complete) return;
    const socket = req.socket;
    const timer = setTimeout(() => {
      if (!req.complete) socket.destroy();
    }, drainMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    req.once('end', stop);
    socket.once('close', stop);
  });
}
