// POST /v1/jobs/{id}/cancel – stop a job; results written so far stay readable
import { v1Route } from '@/lib/http/v1-route';
import { cancelJobRequest } from '@/lib/handlers/job-requests';

export const runtime = 'nodejs';
export const POST = v1Route(cancelJobRequest, { scope: 'moderate' });
