// GET /api/v1/persons – list registered persons, paginated
import { apiV1Route } from '@/lib/http/api-v1-route';
import { listPersonsRequest } from '@/lib/handlers/person-requests';

export const runtime = 'nodejs';
export const GET = apiV1Route(listPersonsRequest, { access: 'biometric', scope: 'faces:read' });
