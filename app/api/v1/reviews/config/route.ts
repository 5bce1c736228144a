// GET /api/v1/reviews/config – the review settings the console follows (undo window, reason codes, quotas)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { reviewConfigRequest } from '@/lib/handlers/audit-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(reviewConfigRequest, { scope: 'review' });
