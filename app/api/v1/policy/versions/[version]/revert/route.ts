// POST /api/v1/policy/versions/{version}/revert – a new version with that version's category put back (admin)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { revertPolicyRequest } from '@/lib/handlers/policy-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const POST = apiV1Route(revertPolicyRequest, { scope: 'admin' });
