// GET /v1/health – healthy exactly when every model is loaded, otherwise degraded
import { v1Route } from '@/lib/http/v1-route';
import { health } from '@/lib/handlers/moderate-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = v1Route(health);
