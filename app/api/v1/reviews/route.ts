// GET /api/v1/reviews – recorded moderations awaiting review, newest first, filterable
import { apiV1Route } from '@/lib/http/api-v1-route';
import { listReviewsRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(listReviewsRequest, { scope: 'review' });
