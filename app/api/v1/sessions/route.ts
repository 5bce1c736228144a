// GET /api/v1/sessions – the browser sessions opened with the caller's key
import { apiV1Route } from '@/lib/http/api-v1-route';
import { listSessionsRequest } from '@/lib/handlers/session-list-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(listSessionsRequest);
