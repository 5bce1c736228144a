// POST /api/v1/persons/{person_id}/faces – add a face photo to a registered person
import { apiV1Route } from '@/lib/http/api-v1-route';
import { addFaceRequest } from '@/lib/faces/api/person-requests';

export const runtime = 'nodejs';
export const POST = apiV1Route(addFaceRequest, { access: 'biometric', faceRateLimited: true });
