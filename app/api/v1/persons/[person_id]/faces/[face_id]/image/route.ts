// GET /api/v1/persons/{person_id}/faces/{face_id}/image – the face's stored photo (only with STORE_FACE_IMAGES)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { faceImageRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = apiV1Route(faceImageRequest, { access: 'biometric', scope: 'faces:read' });
