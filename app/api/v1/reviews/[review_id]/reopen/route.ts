// POST /api/v1/reviews/{review_id}/reopen – put a decided item back in the queue; appends a `reopened` row to the audit log
import { apiV1Route } from '@/lib/http/api-v1-route';
import { reopenReviewRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(reopenReviewRequest, { scope: 'review' });
