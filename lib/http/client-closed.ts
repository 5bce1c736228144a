/**
 * A client that hangs up mid-request (the body stops, the socket closes) makes the body reader
 * throw. That is not a server error: it is recorded as 499 (nginx's "client closed request") in
 * the log line and /metrics, instead of 500 and an error log, so nobody can inflate the 5xx
 * rate by aborting requests. Nobody receives the answer.
 */
export function clientClosed(request: Request): boolean {
  return request.signal.aborted;
}

export const CLIENT_CLOSED_STATUS = 499;

export function clientClosedResponse(headers: Record<string, string>): Response {
  return new Response(null, { status: CLIENT_CLOSED_STATUS, headers });
}
