// POST /api/v1/reviews/backlog/pull – move backlog items (over their client's quota) into the active queue
import { apiV1Route } from '@/lib/http/api-v1-route';
import { pullReviewsRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(pullReviewsRequest, { scope: 'review' });
