// DELETE /api/v1/sessions/{session_id} – revoke one of the caller's key's sessions
import { apiV1Route } from '@/lib/http/api-v1-route';
import { revokeSessionRequest } from '@/lib/handlers/session-list-requests';

export const runtime = 'nodejs';
export const DELETE = apiV1Route(revokeSessionRequest);
