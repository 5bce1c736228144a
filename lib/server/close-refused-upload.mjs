// An oversized upload (issue 23, item 7): the route answers 413 as soon as the body passes its
// limit, but Node keeps reading the rest of the body to reuse the connection, so a client that
// kept sending held the socket until it gave up (or REQUEST_TIMEOUT_MS). A 413 to a request whose
// body was not read to the end now carries `Connection: close`: the client knows not to reuse the
// socket (a keep-alive client racing a silent close would fail its next request), and Node ends
// and destroys the socket once the answer is written.
// Plain JavaScript: server.mjs runs outside the Next bundles.

/** Arms the close for this request; call once per request, before handling it. */
export function closeAfterRefusedUpload(req, res) {
  const writeHead = res.writeHead;
  // Node's implicit headers (a write without writeHead) go through writeHead too.
  res.writeHead = function (statusCode, ...rest) {
    if (statusCode === 413 && !req.complete && !this.headersSent) this.setHeader('Connection', 'close');
    return writeHead.call(this, statusCode, ...rest);
  };
}
