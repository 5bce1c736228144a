// GET /v1/models – the three models, their versions and whether each is loaded
import { v1Route } from '@/lib/http/v1-route';
import { listModels } from '@/lib/handlers/moderate-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = v1Route(listModels);
