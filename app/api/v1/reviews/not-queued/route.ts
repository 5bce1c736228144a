// GET /api/v1/reviews/not-queued – flagged texts answered but not queued, by reason and client
import { apiV1Route } from '@/lib/http/api-v1-route';
import { notQueuedRequest } from '@/lib/handlers/audit-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(notQueuedRequest, { scope: 'review' });
