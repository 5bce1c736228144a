/**
 * The request id of an API answer: the client's `X-Request-Id` when it is a plausible id
 * (1-128 characters of letters, digits and `._:-`, so it is safe to log and echo), otherwise a
 * fresh UUID. Echoed in the `X-Request-Id` response header and on every log line of the request.
 */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: Request): string {
  const incoming = request.headers.get('x-request-id')?.trim();
  return incoming && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
}
