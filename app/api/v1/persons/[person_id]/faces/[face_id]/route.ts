// DELETE /api/v1/persons/{person_id}/faces/{face_id} – hard-delete one stored face (never the last)
import { apiV1Route } from '@/lib/http/api-v1-route';
import { deleteFaceRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const DELETE = apiV1Route(deleteFaceRequest, { access: 'biometric', scope: 'faces:write' });
