// POST /api/v1/reviews/{review_id}/undo – take back a recent decision; appends an `undone` row to the audit log
import { apiV1Route } from '@/lib/http/api-v1-route';
import { undoReviewRequest } from '@/lib/handlers/review-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(undoReviewRequest, { scope: 'review' });
