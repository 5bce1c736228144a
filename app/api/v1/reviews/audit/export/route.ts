// GET /api/v1/reviews/audit/export – the whole audit log as a CSV download
import { apiV1Route } from '@/lib/http/api-v1-route';
import { exportAuditCsvRequest } from '@/lib/reviews/api/review-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(exportAuditCsvRequest, { scope: 'review' });
