// The sockets of server.mjs's HTTP server and whether a request is being answered on each, for the
// drain on SIGTERM. Node's server.close() stops the headers and request timeouts, and
// server.closeIdleConnections() leaves alone any socket whose next request has not arrived whole:
// one that connected and sent nothing yet (a browser's preconnect, a client that connected as the
// signal came) or one half way through its headers. Each held the drain until SHUTDOWN_GRACE_MS.
// While draining, such a socket has no request in flight: it is closed, and the client retries
// elsewhere. Plain JavaScript: server.mjs runs outside the Next bundles.

/**
 * Tracks `server`'s sockets. `closeIdle()` destroys every socket with no request being answered
 * (call it only while draining); `describe()` counts the open ones for the deadline's log line.
 */
export function trackSockets(server) {
  const sockets = new Map();
  server.on('connection', (socket) => {
    sockets.set(socket, { answering: 0, requests: 0, route: null });
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const state = sockets.get(req.socket);
    if (!state) return;
    state.answering++;
    state.requests++;
    // The path only: a query string can hold what a client typed.
    state.route = `${req.method} ${String(req.url ?? '')
      .split('?')[0]
      .slice(0, 80)}`;
    res.once('close', () => {
      state.answering--;
    });
  });
  return {
    closeIdle() {
      let closed = 0;
      for (const [socket, state] of sockets) {
        if (state.answering > 0) continue;
        sockets.delete(socket);
        socket.destroy();
        closed++;
      }
      return closed;
    },
    describe() {
      const open = { answering: [], between_requests: 0, before_first_request: 0 };
      for (const state of sockets.values()) {
        if (state.answering > 0) open.answering.push(state.route);
        else if (state.requests > 0) open.between_requests++;
        else open.before_first_request++;
      }
      return open;
    },
  };
}
