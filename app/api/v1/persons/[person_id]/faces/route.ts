// GET, POST /api/v1/persons/{person_id}/faces – list a person's stored faces, or add a face photo
import { apiV1Route } from '@/lib/http/api-v1-route';
import { addFaceRequest, listFacesRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const GET = apiV1Route(listFacesRequest, { access: 'biometric', scope: 'faces:read' });
export const POST = apiV1Route(addFaceRequest, { access: 'biometric', scope: 'faces:write', faceRateLimited: true });
