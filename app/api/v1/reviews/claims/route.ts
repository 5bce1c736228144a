// GET /api/v1/reviews/claims – the claims that hold, the caller's own marked (polled by the console)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { listClaimsRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(listClaimsRequest, { scope: 'review' });
