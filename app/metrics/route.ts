// GET /metrics – Prometheus metrics (requests, latency, model time, batch sizes, queues, database pool)
import { metricsRequest } from '@/lib/handlers/metrics-endpoint';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const GET = metricsRequest;
