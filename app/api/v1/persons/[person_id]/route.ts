// GET, PATCH, DELETE /api/v1/persons/{person_id} – read, update or hard-delete one person
import { apiV1Route } from '@/lib/http/api-v1-route';
import { deletePersonRequest, getPersonRequest, updatePersonRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const GET = apiV1Route(getPersonRequest, { access: 'biometric', scope: 'faces:read' });
export const PATCH = apiV1Route(updatePersonRequest, { access: 'biometric', scope: 'faces:write' });
export const DELETE = apiV1Route(deletePersonRequest, { access: 'biometric', scope: 'faces:write' });
