/**
 * A finished job's callback (docs/decisions/165-bulk-moderation-jobs.md): one POST of the job object
 * to its `callback_url`, signed with an HMAC of the body under the job owner's secret, retried
 * with exponential backoff.
 *
 * No server-side request forgery: the URL must be https (plain http only for a host listed in
 * JOB_CALLBACK_ALLOWED_HOSTS), carry no credentials, and not name a loopback, private, link-local,
 * unspecified, IPv4-mapped or otherwise internal address literally (in any spelling the URL parser
 * accepts: `127.1`, `2130706433`, `[::ffff:127.0.0.1]`), so such a job is refused when it is
 * created. A name is checked when the connection is made: it is refused when the name resolves to
 * such an address (request-filtering-agent checks the address actually connected to, so a DNS
 * answer that changes between check and connect does not get through). A listed host may be or
 * resolve to a private address: that is what listing it is for.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { internalHost } from '@/lib/net/internal-address';

export interface CallbackPolicy {
  /** Host names (lower case, optionally `host:port`) that may be called over http and on private addresses. */
  allowedHosts: readonly string[];
}

export class CallbackUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallbackUrlError';
  }
}

/** The callback's name resolved to an address it may not reach: retrying would only be refused again. */
export class CallbackAddressRefusedError extends CallbackUrlError {
  constructor(message: string) {
    super(message);
    this.name = 'CallbackAddressRefusedError';
  }
}

// request-filtering-agent's refusal: "DNS lookup 127.0.0.1(family:4, host:…) is not allowed. Because, …".
const AGENT_REFUSAL = /^DNS lookup .* is not allowed\b/;

const hostAllowed = (url: URL, policy: CallbackPolicy) =>
  policy.allowedHosts.includes(url.hostname.toLowerCase()) || policy.allowedHosts.includes(url.host.toLowerCase());

/** The URL, checked: https (or an allowed host), no credentials, no internal address (unless allowed). Throws CallbackUrlError. */
export function checkCallbackUrl(raw: string, policy: CallbackPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CallbackUrlError('callback_url is not a valid absolute URL.');
  }
  if (url.username || url.password) throw new CallbackUrlError('callback_url must not carry credentials.');
  const allowed = hostAllowed(url, policy);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) {
    throw new CallbackUrlError('callback_url must be https (plain http only for a host in JOB_CALLBACK_ALLOWED_HOSTS).');
  }
  const internal = allowed ? undefined : internalHost(url.hostname);
  if (internal !== undefined) {
    throw new CallbackUrlError(
      `callback_url must not point to a loopback, private, link-local or other internal address (${internal}) unless its host is in JOB_CALLBACK_ALLOWED_HOSTS.`,
    );
  }
  return url;
}

/** The secret a key's callbacks are signed with: HMAC-SHA256(key, "vigil-job-callback"), hex. Its holder can compute it. */
export function callbackSecret(apiKey: string): string {
  return createHmac('sha256', apiKey).update('vigil-job-callback').digest('hex');
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the timestamp binds the signature to one delivery. */
export function signCallback(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

const TIMEOUT_MS = 10_000;

/** One delivery: resolves with the HTTP status, rejects on a refused address, a timeout or a network error. */
export function postCallback(url: URL, body: string, headers: Record<string, string>, policy: CallbackPolicy): Promise<number> {
  const allowPrivateIPAddress = hostAllowed(url, policy);
  const secure = url.protocol === 'https:';
  const agent = secure
    ? new RequestFilteringHttpsAgent({ allowPrivateIPAddress })
    : new RequestFilteringHttpAgent({ allowPrivateIPAddress });
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent,
        timeout: TIMEOUT_MS,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', (err) =>
      reject(
        AGENT_REFUSAL.test(err.message)
          ? new CallbackAddressRefusedError(`callback_url resolves to a refused address: ${err.message.slice(0, 200)}`)
          : err,
      ),
    );
    req.end(body);
  }).finally(() => agent.destroy()) as Promise<number>;
}

export interface DeliverOptions {
  policy: CallbackPolicy;
  secret: string;
  maxAttempts: number;
  /** Delay before retry n (1-based): base × 2^(n-1). */
  baseDelayMs: number;
  /** Seam for tests. */
  post?: typeof postCallback;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Called after each try, before the wait for the next; awaited, so the try is recorded first. */
  onAttempt?: (attempt: number, outcome: number | Error) => void | Promise<void>;
}

/**
 * Delivers until a 2xx answer or `maxAttempts` tries; resolves with whether it was delivered. A
 * name that resolved to a refused address ends the tries at once: the job's owner chose a host
 * that points inside, and asking again only knocks on the same door.
 */
export async function deliverCallback(rawUrl: string, jobId: string, payload: unknown, o: DeliverOptions): Promise<boolean> {
  const post = o.post ?? postCallback;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = o.now ?? Date.now;
  const url = checkCallbackUrl(rawUrl, o.policy);
  const body = JSON.stringify(payload);
  for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
    const headers = {
      'X-Vigil-Job-Id': jobId,
      'X-Vigil-Signature': signCallback(o.secret, body, Math.floor(now() / 1000)),
      'User-Agent': 'vigil-job-callback',
    };
    let outcome: number | Error;
    try {
      outcome = await post(url, body, headers, o.policy);
    } catch (err) {
      outcome = err instanceof Error ? err : new Error(String(err));
    }
    await o.onAttempt?.(attempt, outcome);
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) return true;
    if (outcome instanceof CallbackAddressRefusedError) return false;
    if (attempt < o.maxAttempts) await sleep(o.baseDelayMs * 2 ** (attempt - 1));
  }
  return false;
}
