// GET, POST, DELETE /api/v1/session – session status, sign in with an API key (sets the cookie), sign out
import { apiV1Route } from '@/lib/http/api-v1-route';
import { sessionStatusRequest, signInRequest, signOutRequest } from '@/lib/handlers/session-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(sessionStatusRequest, { access: 'public' });
export const POST = apiV1Route(signInRequest, { access: 'public' });
export const DELETE = apiV1Route(signOutRequest, { access: 'public' });
