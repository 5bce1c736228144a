// POST /v1/moderate/text – moderate one text
import { v1Route } from '@/lib/http/v1-route';
import { moderateTextRequest } from '@/lib/handlers/moderate-requests';

export const runtime = 'nodejs';
export const POST = v1Route(moderateTextRequest);
