// GET /api/v1/reviews/audit/export – the audit log, filtered as the listing, as a CSV download
import { apiV1Route } from '@/lib/http/api-v1-route';
import { exportAuditCsvRequest } from '@/lib/handlers/audit-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(exportAuditCsvRequest, { scope: 'review' });
