// GET /v1/jobs/{id} – a job's state, counts, times and estimate of the time left
import { v1Route } from '@/lib/http/v1-route';
import { getJobRequest } from '@/lib/handlers/job-requests';

export const runtime = 'nodejs';
export const GET = v1Route(getJobRequest, { scope: 'moderate' });
