// GET /api/v1/policy – the thresholds in force, measured on the decided review items
import { apiV1Route } from '@/lib/http/api-v1-route';
import { getPolicyRequest } from '@/lib/handlers/policy-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(getPolicyRequest, { scope: 'review' });
