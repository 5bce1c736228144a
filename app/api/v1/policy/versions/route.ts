// GET, POST /api/v1/policy/versions – the threshold changes; a new one (admin)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { changeThresholdRequest, listPolicyVersionsRequest } from '@/lib/handlers/policy-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(listPolicyVersionsRequest, { scope: 'review' });
export const POST = apiV1Route(changeThresholdRequest, { scope: 'admin' });
