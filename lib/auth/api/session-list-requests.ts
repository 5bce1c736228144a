/**
 * GET /api/v1/sessions and DELETE /api/v1/sessions/{session_id}: the browser sessions opened with
 * the caller's key (Bearer or cookie), and revoking one of them, e.g. a browser left signed in
 * elsewhere. A key sees and ends only its own sessions.
 */
import 'server-only';
import { z } from 'zod';
import type { SessionList, SessionRevoked } from '@/lib/contracts/session';
import { ApiV1Error } from '@/lib/http/api-v1-error';
import type { ApiV1Context } from '@/lib/http/api-v1-route';
import { sessionStore } from '@/lib/server/session-service';

const sessionId = z.uuid();

export async function listSessionsRequest({ principal }: ApiV1Context): Promise<SessionList> {
  // Without API_KEYS nobody signs in, so there are no sessions to list.
  if (!principal.keyId) return { sessions: [] };
  const rows = await (await sessionStore()).list(principal.keyId);
  return {
    sessions: rows.map((r) => ({
      session_id: r.id,
      created_at: r.createdAt.toISOString(),
      expires_at: r.expiresAt.toISOString(),
      current: r.id === principal.sessionId,
    })),
  };
}

export async function revokeSessionRequest({ params, principal }: ApiV1Context): Promise<SessionRevoked> {
  const id = params.session_id ?? '';
  const notFound = new ApiV1Error('NOT_FOUND', `No session with id ${id.slice(0, 64)} was opened with this key.`);
  if (!principal.keyId || !sessionId.safeParse(id).success) throw notFound;
  if (!(await (await sessionStore()).revoke(id, principal.keyId))) throw notFound;
  return { session_id: id, revoked: true };
}
