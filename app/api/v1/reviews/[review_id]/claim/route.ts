// POST /api/v1/reviews/{review_id}/claim – claim an item so no other moderator decides it (stale after 600 s)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { claimReviewRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(claimReviewRequest, { scope: 'review' });
