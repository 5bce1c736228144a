// GET /v1/jobs/{id}/results – the results so far, in input order (JSON Lines, or CSV with ?format=csv)
import { v1Route } from '@/lib/http/v1-route';
import { jobResultsRequest } from '@/lib/handlers/job-requests';

export const runtime = 'nodejs';
export const GET = v1Route(jobResultsRequest, { scope: 'moderate' });
