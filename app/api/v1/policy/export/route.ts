// GET /api/v1/policy/export – the decided review items as a labelled CSV (an extra training corpus)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { exportDecisionsRequest } from '@/lib/handlers/policy-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(exportDecisionsRequest, { scope: 'review' });
