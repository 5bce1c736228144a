// GET /api/v1/reviews/audit – the append-only audit log of review decisions, newest first
import { apiV1Route } from '@/lib/http/api-v1-route';
import { listAuditRequest } from '@/lib/handlers/audit-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(listAuditRequest, { scope: 'review' });
