/**
 * Key scopes (decision 150): every route × a key lacking its scope answers 403 (INSUFFICIENT_SCOPE in the
 * /api/v1 envelope, `{detail}` on the keyed /v1 job routes, plain text on /metrics), and a key holding only that scope is not refused.
 * Drives the real route handlers the way Next calls them; what a handler answers past the scope
 * check (404 for an unknown id, 415 for a missing photo) is not under test here.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCOPES, type Scope } from '@/lib/contracts/scopes';

vi.mock('server-only', () => ({}));

const persons = await import('@/app/api/v1/persons/route');
const person = await import('@/app/api/v1/persons/[person_id]/route');
const faces = await import('@/app/api/v1/persons/[person_id]/faces/route');
const face = await import('@/app/api/v1/persons/[person_id]/faces/[face_id]/route');
const faceImage = await import('@/app/api/v1/persons/[person_id]/faces/[face_id]/image/route');
const recognize = await import('@/app/api/v1/recognize/route');
const register = await import('@/app/api/v1/register/route');
const reviews = await import('@/app/api/v1/reviews/route');
const audit = await import('@/app/api/v1/reviews/audit/route');
const auditExport = await import('@/app/api/v1/reviews/audit/export/route');
const decision = await import('@/app/api/v1/reviews/[review_id]/decision/route');
const explain = await import('@/app/api/v1/reviews/[review_id]/explain/route');
const undo = await import('@/app/api/v1/reviews/[review_id]/undo/route');
const reopen = await import('@/app/api/v1/reviews/[review_id]/reopen/route');
const claim = await import('@/app/api/v1/reviews/[review_id]/claim/route');
const release = await import('@/app/api/v1/reviews/[review_id]/release/route');
const backlogPull = await import('@/app/api/v1/reviews/backlog/pull/route');
const claims = await import('@/app/api/v1/reviews/claims/route');
const reviewConfig = await import('@/app/api/v1/reviews/config/route');
const notQueued = await import('@/app/api/v1/reviews/not-queued/route');
const policy = await import('@/app/api/v1/policy/route');
const policyImpact = await import('@/app/api/v1/policy/impact/route');
const policyVersions = await import('@/app/api/v1/policy/versions/route');
const policyRevert = await import('@/app/api/v1/policy/versions/[version]/revert/route');
const policyExport = await import('@/app/api/v1/policy/export/route');
const sessions = await import('@/app/api/v1/sessions/route');
const sessionById = await import('@/app/api/v1/sessions/[session_id]/route');
const session = await import('@/app/api/v1/session/route');
const metricsRoute = await import('@/app/metrics/route');
const jobs = await import('@/app/v1/jobs/route');
const job = await import('@/app/v1/jobs/[id]/route');
const jobCancel = await import('@/app/v1/jobs/[id]/cancel/route');
const jobResults = await import('@/app/v1/jobs/[id]/results/route');
const { resetEnvForTests } = await import('@/lib/env');
const { dropSingleton } = await import('@/lib/process/singleton');
const { closeDatabase } = await import('@/lib/composition/database');

const keyWith = (scopes: readonly Scope[]) => `scoped-${scopes.join('-').replaceAll(':', '_') || 'none'}-0123456789`;
/** For each scope: a key with only it, and a key with every other scope. */
const only = Object.fromEntries(SCOPES.map((s) => [s, keyWith([s])])) as Record<Scope, string>;
const allBut = Object.fromEntries(SCOPES.map((s) => [s, keyWith(SCOPES.filter((t) => t !== s))])) as Record<Scope, string>;
const FULL = 'scoped-legacy-entry-0123456789';
const API_KEYS = [
  FULL,
  ...SCOPES.map((s) => `${only[s]}:${s}`),
  ...SCOPES.map((s) => `${allBut[s]}:${SCOPES.filter((t) => t !== s).join('+')}`),
].join(',');

const ID = '00000000-0000-4000-8000-000000000001';
const url = (p: string) => `http://127.0.0.1:3000${p}`;
const call =
  (
    handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
    method: string,
    p: string,
    params: Record<string, string> = {},
  ) =>
  (key: string, extra: Record<string, string> = {}) =>
    handler(
      new Request(url(p), {
        method,
        headers: { host: '127.0.0.1:3000', 'x-vigil-client-ip': '127.0.0.1', authorization: `Bearer ${key}`, ...extra },
      }),
      { params: Promise.resolve(params) },
    );

/** The route → scope table of docs/operations.md "Security"; one row per method and path. */
const table: [string, Scope, (key: string) => Promise<Response>][] = [
  ['GET /api/v1/persons', 'faces:read', call(persons.GET, 'GET', '/api/v1/persons')],
  ['GET /api/v1/persons/{id}', 'faces:read', call(person.GET, 'GET', `/api/v1/persons/${ID}`, { person_id: ID })],
  ['PATCH /api/v1/persons/{id}', 'faces:write', call(person.PATCH, 'PATCH', `/api/v1/persons/${ID}`, { person_id: ID })],
  ['DELETE /api/v1/persons/{id}', 'faces:write', call(person.DELETE, 'DELETE', `/api/v1/persons/${ID}`, { person_id: ID })],
  ['GET /api/v1/persons/{id}/faces', 'faces:read', call(faces.GET, 'GET', `/api/v1/persons/${ID}/faces`, { person_id: ID })],
  ['POST /api/v1/persons/{id}/faces', 'faces:write', call(faces.POST, 'POST', `/api/v1/persons/${ID}/faces`, { person_id: ID })],
  [
    'DELETE /api/v1/persons/{id}/faces/{face_id}',
    'faces:write',
    call(face.DELETE, 'DELETE', `/api/v1/persons/${ID}/faces/${ID}`, { person_id: ID, face_id: ID }),
  ],
  [
    'GET /api/v1/persons/{id}/faces/{face_id}/image',
    'faces:read',
    call(faceImage.GET, 'GET', `/api/v1/persons/${ID}/faces/${ID}/image`, { person_id: ID, face_id: ID }),
  ],
  ['POST /api/v1/recognize', 'faces:read', call(recognize.POST, 'POST', '/api/v1/recognize')],
  ['POST /api/v1/register', 'faces:write', call(register.POST, 'POST', '/api/v1/register')],
  ['GET /api/v1/reviews', 'review', call(reviews.GET, 'GET', '/api/v1/reviews')],
  ['GET /api/v1/reviews/audit', 'review', call(audit.GET, 'GET', '/api/v1/reviews/audit')],
  ['GET /api/v1/reviews/audit/export', 'review', call(auditExport.GET, 'GET', '/api/v1/reviews/audit/export')],
  ['GET /api/v1/reviews/claims', 'review', call(claims.GET, 'GET', '/api/v1/reviews/claims')],
  ['GET /api/v1/reviews/config', 'review', call(reviewConfig.GET, 'GET', '/api/v1/reviews/config')],
  ['GET /api/v1/reviews/not-queued', 'review', call(notQueued.GET, 'GET', '/api/v1/reviews/not-queued')],
  ['POST /api/v1/reviews/{id}/reopen', 'review', call(reopen.POST, 'POST', `/api/v1/reviews/${ID}/reopen`, { review_id: ID })],
  ['POST /api/v1/reviews/{id}/decision', 'review', call(decision.POST, 'POST', `/api/v1/reviews/${ID}/decision`, { review_id: ID })],
  ['GET /api/v1/reviews/{id}/explain', 'review', call(explain.GET, 'GET', `/api/v1/reviews/${ID}/explain`, { review_id: ID })],
  ['POST /api/v1/reviews/{id}/undo', 'review', call(undo.POST, 'POST', `/api/v1/reviews/${ID}/undo`, { review_id: ID })],
  ['POST /api/v1/reviews/{id}/claim', 'review', call(claim.POST, 'POST', `/api/v1/reviews/${ID}/claim`, { review_id: ID })],
  ['POST /api/v1/reviews/{id}/release', 'review', call(release.POST, 'POST', `/api/v1/reviews/${ID}/release`, { review_id: ID })],
  ['POST /api/v1/reviews/backlog/pull', 'review', call(backlogPull.POST, 'POST', '/api/v1/reviews/backlog/pull')],
  ['GET /api/v1/policy', 'review', call(policy.GET, 'GET', '/api/v1/policy')],
  ['GET /api/v1/policy/impact', 'review', call(policyImpact.GET, 'GET', '/api/v1/policy/impact')],
  ['GET /api/v1/policy/versions', 'review', call(policyVersions.GET, 'GET', '/api/v1/policy/versions')],
  ['POST /api/v1/policy/versions', 'admin', call(policyVersions.POST, 'POST', '/api/v1/policy/versions')],
  [
    'POST /api/v1/policy/versions/{v}/revert',
    'admin',
    call(policyRevert.POST, 'POST', '/api/v1/policy/versions/1/revert', { version: '1' }),
  ],
  ['GET /api/v1/policy/export', 'review', call(policyExport.GET, 'GET', '/api/v1/policy/export')],
  ['POST /v1/jobs', 'moderate', call(jobs.POST, 'POST', '/v1/jobs')],
  ['GET /v1/jobs', 'moderate', call(jobs.GET, 'GET', '/v1/jobs')],
  ['GET /v1/jobs/{id}', 'moderate', call(job.GET, 'GET', `/v1/jobs/${ID}`, { id: ID })],
  ['POST /v1/jobs/{id}/cancel', 'moderate', call(jobCancel.POST, 'POST', `/v1/jobs/${ID}/cancel`, { id: ID })],
  ['GET /v1/jobs/{id}/results', 'moderate', call(jobResults.GET, 'GET', `/v1/jobs/${ID}/results`, { id: ID })],
  ['GET /metrics', 'admin', (key) => metricsRoute.GET(new Request(url('/metrics'), { headers: { authorization: `Bearer ${key}` } }))],
];

/**
 * Routes no scope guards: the sign-in endpoints (they check a key themselves), a key's own sessions
 * (`?all=true` needs admin: tested below), the JSON 404, /v1 (open, see docs/operations.md), files.
 */
const UNSCOPED = new Set([
  'app/api/v1/[...path]/route.ts',
  'app/api/v1/session/route.ts',
  'app/api/v1/sessions/route.ts',
  'app/api/v1/sessions/[session_id]/route.ts',
  'app/v1/health/route.ts',
  'app/v1/models/route.ts',
  'app/v1/moderate/batch/route.ts',
  'app/v1/moderate/text/route.ts',
  'app/human/[...path]/route.ts',
  'app/models/[...path]/route.ts',
  'app/openapi.json/route.ts',
  'app/ort/[file]/route.ts',
]);
const SCOPED_FILES = new Set([
  'app/api/v1/persons/route.ts',
  'app/api/v1/persons/[person_id]/route.ts',
  'app/api/v1/persons/[person_id]/faces/route.ts',
  'app/api/v1/persons/[person_id]/faces/[face_id]/route.ts',
  'app/api/v1/persons/[person_id]/faces/[face_id]/image/route.ts',
  'app/api/v1/recognize/route.ts',
  'app/api/v1/register/route.ts',
  'app/api/v1/reviews/route.ts',
  'app/api/v1/reviews/audit/route.ts',
  'app/api/v1/reviews/audit/export/route.ts',
  'app/api/v1/reviews/[review_id]/decision/route.ts',
  'app/api/v1/reviews/[review_id]/explain/route.ts',
  'app/api/v1/reviews/[review_id]/undo/route.ts',
  'app/api/v1/reviews/[review_id]/reopen/route.ts',
  'app/api/v1/reviews/[review_id]/claim/route.ts',
  'app/api/v1/reviews/[review_id]/release/route.ts',
  'app/api/v1/reviews/backlog/pull/route.ts',
  'app/api/v1/reviews/claims/route.ts',
  'app/api/v1/reviews/config/route.ts',
  'app/api/v1/reviews/not-queued/route.ts',
  'app/api/v1/policy/route.ts',
  'app/api/v1/policy/impact/route.ts',
  'app/api/v1/policy/versions/route.ts',
  'app/api/v1/policy/versions/[version]/revert/route.ts',
  'app/api/v1/policy/export/route.ts',
  'app/metrics/route.ts',
  'app/v1/jobs/route.ts',
  'app/v1/jobs/[id]/route.ts',
  'app/v1/jobs/[id]/cancel/route.ts',
  'app/v1/jobs/[id]/results/route.ts',
]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === 'route.ts' ? [p] : [];
  });
}

beforeEach(() => {
  vi.stubEnv('API_KEYS', API_KEYS);
  vi.stubEnv('REVIEW_QUEUE', 'flagged');
  vi.stubEnv('LOG_LEVEL', 'silent');
  vi.stubEnv('DATA_DIR', ':memory:');
  vi.stubEnv('FACE_WARM_ON_START', 'false');
  resetEnvForTests();
  dropSingleton('limiters');
});

afterAll(() => closeDatabase());

describe('route scopes', () => {
  it('covers every route under app/: each is in the table or deliberately unscoped', () => {
    for (const file of routeFiles('app')) expect(SCOPED_FILES.has(file) || UNSCOPED.has(file), file).toBe(true);
    expect(SCOPED_FILES.size + UNSCOPED.size).toBe(routeFiles('app').length);
  });

  it.each(table)('%s refuses a key without %s (403)', async (name, scope, send) => {
    const res = await send(allBut[scope]);
    expect(res.status, name).toBe(403);
    if (name.startsWith('GET /metrics')) expect(await res.text()).toContain("'admin'");
    // The /v1 family answers FastAPI's `{detail}`, not the /api/v1 envelope.
    else if (name.includes(' /v1/')) expect((await res.json()).detail).toContain(`'${scope}'`);
    else expect((await res.json()).error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', message: expect.stringContaining(`'${scope}'`) });
  });

  it.each(table)('%s serves a key with only %s (not 401/403)', async (name, scope, send) => {
    const res = await send(only[scope]);
    expect([401, 403], `${name}: ${res.status}`).not.toContain(res.status);
  });

  it.each(table)('%s serves an entry without scopes (every scope, as before)', async (name, _scope, send) => {
    expect([401, 403], name).not.toContain((await send(FULL)).status);
  });
});

describe('sessions and scopes', () => {
  const signIn = async (key: string) => {
    const res = await session.POST(
      new Request(url('/api/v1/session'), {
        method: 'POST',
        headers: { host: '127.0.0.1:3000', 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: key }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, body: await res.json() };
  };
  const withCookie = (cookie: string, p = '/api/v1/session') =>
    new Request(url(p), { headers: { host: '127.0.0.1:3000', 'x-vigil-client-ip': '127.0.0.1', cookie } });

  it('GET /api/v1/session reports the key scopes, for a bearer key and for a cookie', async () => {
    const status = await (await call(session.GET, 'GET', '/api/v1/session')(only.review)).json();
    expect(status.data).toMatchObject({ authenticated: true, scopes: ['review'] });
    const legacy = await (await call(session.GET, 'GET', '/api/v1/session')(FULL)).json();
    expect(legacy.data.scopes).toEqual([...SCOPES]);
    const { cookie, body } = await signIn(only['faces:read']);
    expect(body.data.scopes).toEqual(['faces:read']);
    const viaCookie = await (await session.GET(withCookie(cookie), { params: Promise.resolve({}) })).json();
    expect(viaCookie.data.scopes).toEqual(['faces:read']);
  });

  it("a session follows its key's current API_KEYS entry, without signing in again", async () => {
    const { cookie } = await signIn(only.review);
    const people = () => persons.GET(withCookie(cookie, '/api/v1/persons'), { params: Promise.resolve({}) });
    expect((await people()).status).toBe(403);
    vi.stubEnv('API_KEYS', `${only.review}:review+faces:read`);
    resetEnvForTests();
    expect((await people()).status).toBe(200);
  });

  it("any key lists and revokes its own sessions; ?all=true (every key's) needs admin", async () => {
    await signIn(only.review);
    await signIn(only['faces:read']);
    type Row = { session_id: string; key_id: string };
    const list = (key: string, query = '') => call(sessions.GET, 'GET', `/api/v1/sessions${query}`)(key);
    const own: Row[] = (await (await list(only.review)).json()).data.sessions;
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own.map((s) => s.key_id)).size).toBe(1);
    const denied = await list(allBut.admin, '?all=true');
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe('INSUFFICIENT_SCOPE');
    const all: Row[] = (await (await list(only.admin, '?all=true')).json()).data.sessions;
    const other = all.find((s) => s.key_id !== own[0]!.key_id)!;
    expect(other).toBeDefined();
    const revoke = (key: string, id: string, query = '') =>
      call(sessionById.DELETE, 'DELETE', `/api/v1/sessions/${id}${query}`, { session_id: id })(key);
    expect((await revoke(only.review, other.session_id)).status).toBe(404);
    expect((await revoke(allBut.admin, other.session_id, '?all=true')).status).toBe(403);
    expect((await revoke(only.admin, other.session_id)).status).toBe(404);
    expect((await revoke(only.admin, other.session_id, '?all=true')).status).toBe(200);
    expect((await revoke(only.review, own[0]!.session_id)).status).toBe(200);
  });
});

describe('API_KEYS syntax', () => {
  it('reads key:scope+scope, and an entry without scopes as every scope', async () => {
    const { loadEnv } = await import('@/lib/env');
    const e = loadEnv({ API_KEYS: 'plain-key-0123456789abc, scoped-key-0123456789abc:review+faces:read' });
    expect(e.API_KEYS).toEqual(['plain-key-0123456789abc', 'scoped-key-0123456789abc']);
    expect(e.API_KEY_SCOPES.get('plain-key-0123456789abc')).toEqual([...SCOPES]);
    expect(e.API_KEY_SCOPES.get('scoped-key-0123456789abc')).toEqual(['review', 'faces:read']);
  });

  it('stops start-up with a readable line for an unknown scope, naming the entry and not the key', async () => {
    const { loadEnv } = await import('@/lib/env');
    const run = () => loadEnv({ API_KEYS: 'plain-key-0123456789abc,secret-key-0123456789abc:review+delete' });
    expect(run).toThrow(/API_KEYS: entry 2: unknown scope 'delete'; write key:scope\+scope with scopes from moderate, review/);
    expect(run).not.toThrow(/secret-key/);
  });
});
