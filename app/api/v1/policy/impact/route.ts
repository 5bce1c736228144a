// GET /api/v1/policy/impact – how many decided items a threshold change would change
import { apiV1Route } from '@/lib/http/api-v1-route';
import { policyImpactRequest } from '@/lib/handlers/policy-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(policyImpactRequest, { scope: 'review' });
