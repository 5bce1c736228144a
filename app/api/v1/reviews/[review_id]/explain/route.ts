// GET /api/v1/reviews/{review_id}/explain – why an item was flagged (rule spans, n-grams, deciding model, language)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { explainReviewRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(explainReviewRequest, { scope: 'review' });
