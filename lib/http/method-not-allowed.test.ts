/**
 * A method a route does not export is answered by server.mjs's guard, before Next: 405 with
 * `Allow` in the family's error shape and one log line. Next cannot be started here, so a stand-in
 * takes its place behind the guard and does what Next does first for a route handler: build a
 * Fetch `Request` with the method, which throws for TRACE (Next answered 500 and logged a stack),
 * then refuse what it cannot route with bare statuses.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_V1_ERROR_CODES } from '@/lib/contracts/api-v1';
import { apiV1Status } from './api-v1-status';
import { rejectUndefinedMethod } from './method-not-allowed.mjs';
import { allowedMethods, matchRoute, ROUTES } from './route-table.mjs';

const lines: { fields: Record<string, unknown>; message: string }[] = [];
const log = { info: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }) };

/**
 * What Next does with a request for a route handler before any route code runs
 * (next/dist/build/templates/app-route.js, server/route-modules/app-route): build a Fetch Request
 * (throws for TRACE: 500), refuse a method outside its seven with a bare 400, answer a method the
 * file does not export with a bare 405 (no Allow, no body), else run the route.
 */
function nextStandIn(req: IncomingMessage, res: ServerResponse) {
  const method = req.method ?? '';
  try {
    new Request(`http://127.0.0.1${req.url}`, { method });
  } catch {
    res.writeHead(500).end();
    return;
  }
  if (!['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method)) {
    res.writeHead(400).end();
    return;
  }
  const route = matchRoute((req.url ?? '/').split('?')[0]!);
  if (route && !allowedMethods(route).includes(method)) {
    res.writeHead(405).end();
    return;
  }
  res.writeHead(200, { 'x-answered-by': 'next' }).end();
}

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (rejectUndefinedMethod(req, res, log)) return;
    nextStandIn(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  lines.length = 0;
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a method the route does not export', () => {
  it('TRACE /v1/health answers 405 with Allow and the FastAPI body, and logs one structured line', async () => {
    const res = await send('TRACE', '/v1/health', { 'x-request-id': 'trace-check-1' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-request-id']).toBe('trace-check-1');
    expect(JSON.parse(res.body)).toEqual({ detail: 'Method Not Allowed' });
    expect(lines).toEqual([
      { fields: { reqId: 'trace-check-1', method: 'TRACE', route: '/v1/health', status: 405 }, message: 'v1 request' },
    ]);
  });

  it('PROPFIND on an /api/v1 route answers 405 METHOD_NOT_ALLOWED in the envelope, naming the allowed methods', async () => {
    const res = await send('PROPFIND', '/api/v1/persons/0b9f6a52-3c2e-4f7e-9a55-1d2b3c4d5e6f');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, PATCH');
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ success: false, data: null, error: { code: 'METHOD_NOT_ALLOWED' } });
    expect(body.error.message).toContain('DELETE, GET, HEAD, OPTIONS, PATCH');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      fields: { method: 'PROPFIND', route: '/api/v1/persons/{person_id}', status: 405 },
      message: 'api/v1 request',
    });
    expect(lines[0]!.fields.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a standard method the file lacks (PUT /v1/health, HEAD on a POST-only route) answers 405 with Allow too', async () => {
    const put = await send('PUT', '/v1/health');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, OPTIONS');
    const head = await send('HEAD', '/v1/moderate/text');
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('OPTIONS, POST');
  });

  it('on every route, every method Node parses is answered 405 exactly when the route lacks it, never 500', async () => {
    // CONNECT is not a request handler's: Node's server gives it to a 'connect' listener, or closes the socket.
    const methods = http.METHODS.filter((m) => m !== 'CONNECT');
    for (const route of ROUTES) {
      const path = route.template.replace(/\{[^}]+\}/g, 'x1');
      const allowed = allowedMethods(route);
      for (const method of methods) {
        const res = await send(method, path);
        const expected = allowed.includes(method) ? 200 : 405;
        expect(res.status, `${method} ${path}`).toBe(expected);
        if (expected === 405) expect(res.headers.allow, `${method} ${path}`).toBe(allowed.join(', '));
      }
    }
  });
});

describe('what the guard leaves to Next', () => {
  it("passes a route's own methods, HEAD with GET, and OPTIONS through", async () => {
    for (const [method, path] of [
      ['GET', '/v1/health'],
      ['HEAD', '/v1/health'],
      ['OPTIONS', '/v1/health'],
      ['DELETE', '/api/v1/session'],
      ['POST', '/v1/jobs/abc/cancel'],
    ] as const) {
      const res = await send(method, path);
      expect(res.headers['x-answered-by'], `${method} ${path}`).toBe('next');
    }
    expect(lines).toEqual([]);
  });

  it('answers a method Next cannot route on a path no route serves with the family 404, and leaves the rest to Next', async () => {
    const api = await send('TRACE', '/api/v1/no/such/path');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
    const v1 = await send('PROPFIND', '/v1/no-such-route');
    expect(v1.status).toBe(404);
    expect(JSON.parse(v1.body)).toEqual({ detail: 'Not Found' });
    expect(lines.map((l) => l.fields.route)).toEqual(['unmatched', 'unmatched']);
    // The /api/v1 catch-all answers these; a page's own methods are Next's.
    expect((await send('PUT', '/api/v1/no/such/path')).headers['x-answered-by']).toBe('next');
    expect((await send('POST', '/console')).headers['x-answered-by']).toBe('next');
    expect(lines).toHaveLength(2);
  });
});

describe('outside the API families', () => {
  it('TRACE and other methods Next cannot route answer a plain 405 with Allow on /metrics, /openapi.json, pages and static files, never 500', async () => {
    const methods = http.METHODS.filter(
      (m) => m !== 'CONNECT' && !['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(m),
    );
    for (const path of [
      '/metrics',
      '/openapi.json',
      '/console',
      '/',
      '/favicon.ico',
      '/_next/static/chunks/main.js',
      '/ort/ort-wasm.wasm',
    ]) {
      for (const method of methods) {
        const res = await send(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe('GET, HEAD');
      }
    }
    lines.length = 0;
    const trace = await send('TRACE', '/metrics', { 'x-request-id': 'trace-metrics' });
    expect(trace.body).toBe('Method Not Allowed\n');
    expect(lines).toEqual([{ fields: { reqId: 'trace-metrics', method: 'TRACE', route: 'unmatched', status: 405 }, message: 'request' }]);
    expect((await send('GET', '/metrics')).headers['x-answered-by']).toBe('next');
  });
});

describe('METHOD_NOT_ALLOWED', () => {
  it('is a documented /api/v1 error code answered with 405', () => {
    expect(API_V1_ERROR_CODES).toContain('METHOD_NOT_ALLOWED');
    expect(apiV1Status('METHOD_NOT_ALLOWED')).toBe(405);
    expect(matchRoute('/api/v1/session')?.methods).toEqual(['GET', 'POST', 'DELETE']);
  });
});
