// GET /api/v1/reviews/audit/export – the whole audit log as a CSV download
import { exportAuditCsvRequest } from '@/lib/reviews/api/review-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = (request: Request) => exportAuditCsvRequest(request);
