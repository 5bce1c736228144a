// POST /v1/jobs – a bulk moderation job from a JSON Lines or CSV body; GET /v1/jobs – the caller's jobs
import { v1Route } from '@/lib/http/v1-route';
import { createJobRequest, listJobsRequest } from '@/lib/handlers/job-requests';

export const runtime = 'nodejs';
export const POST = v1Route(createJobRequest, { scope: 'moderate' });
export const GET = v1Route(listJobsRequest, { scope: 'moderate' });
