// POST /api/v1/reviews/{review_id}/decision – confirm or overturn; appends to the audit log
import { apiV1Route } from '@/lib/http/api-v1-route';
import { decideReviewRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(decideReviewRequest, { scope: 'review' });
