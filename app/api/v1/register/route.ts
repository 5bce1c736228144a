// POST /api/v1/register – register a person with a face photo
import { apiV1Route } from '@/lib/http/api-v1-route';
import { registerRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(registerRequest, { access: 'biometric', scope: 'faces:write', faceRateLimited: true });
