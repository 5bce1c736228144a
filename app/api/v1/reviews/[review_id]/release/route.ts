// POST /api/v1/reviews/{review_id}/release – release the caller's claim on an item
import { apiV1Route } from '@/lib/http/api-v1-route';
import { releaseReviewRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(releaseReviewRequest, { scope: 'review' });
