// POST /api/v1/recognize – find registered persons in a photo
import { apiV1Route } from '@/lib/http/api-v1-route';
import { recognizeRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(recognizeRequest, { access: 'biometric', scope: 'faces:read', faceRateLimited: true });
