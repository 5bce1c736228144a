// POST /v1/moderate/batch – moderate up to MAX_BATCH_ITEMS texts in one batched pass
import { v1Route } from '@/lib/http/v1-route';
import { moderateBatchRequest } from '@/lib/handlers/moderate-requests';

export const runtime = 'nodejs';
export const POST = v1Route(moderateBatchRequest);
