/**
 * GET /api/v1/sessions and DELETE /api/v1/sessions/{session_id}: the browser sessions opened with
 * the caller's key (Bearer or cookie), and revoking one of them, e.g. a browser left signed in
 * elsewhere. A key sees and ends its own sessions; with `?all=true` and the `admin` scope, every
 * key's (docs/decisions/150-key-scopes.md). Asked for, not implied by `admin`: an entry without
 * scopes has `admin`, and its list and 404s stay what they were before scopes.
 */
import 'server-only';
import { z } from 'zod';
import type { SessionList, SessionRevoked } from '@/lib/contracts/session';
import { ApiV1Error } from '@/lib/http/api-v1-error';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { requireScope } from '@/lib/auth/authorize-request';

const sessionId = z.uuid();

/** The key whose sessions the request acts on: the caller's, or null (every key's) for `?all=true`, which needs `admin`. */
function sessionOwner({ request, principal }: ApiV1Context): string | null {
  if (new URL(request.url).searchParams.get('all') !== 'true') return principal.keyId ?? null;
  requireScope(principal, 'admin');
  return null;
}

export async function listSessionsRequest(ctx: ApiV1Context): Promise<SessionList> {
  const { principal } = ctx;
  // Without API_KEYS nobody signs in, so there are no sessions to list.
  if (!principal.keyId) return { sessions: [] };
  const rows = await (await ctx.services.sessionStore()).list(sessionOwner(ctx));
  return {
    sessions: rows.map((r) => ({
      session_id: r.id,
      key_id: r.keyId,
      created_at: r.createdAt.toISOString(),
      expires_at: r.expiresAt.toISOString(),
      current: r.id === principal.sessionId,
    })),
  };
}

export async function revokeSessionRequest(ctx: ApiV1Context): Promise<SessionRevoked> {
  const { params, principal } = ctx;
  const id = params.session_id ?? '';
  const notFound = new ApiV1Error('NOT_FOUND', `No session with id ${id.slice(0, 64)} was opened with this key.`);
  if (!principal.keyId || !sessionId.safeParse(id).success) throw notFound;
  if (!(await (await ctx.services.sessionStore()).revoke(id, sessionOwner(ctx)))) throw notFound;
  return { session_id: id, revoked: true };
}
