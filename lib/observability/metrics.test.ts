import { singleton } from '@/lib/process/singleton';
import { describe, expect, it } from 'vitest';
import { createMetrics, metrics, startRequest } from './metrics';

describe('createMetrics', () => {
  it('exposes every Vigil metric and records requests, model times, batch sizes and pool stats', async () => {
    const m = createMetrics();
    const done = startRequest(m, 'v1', 'POST');
    expect((await m.inFlight.get()).values[0]?.value).toBe(1);
    done('/v1/moderate/text', 200);
    expect((await m.inFlight.get()).values[0]?.value).toBe(0);
    m.modelInference.observe({ model: 'toxicity' }, 0.012);
    m.batchSize.observe(37);
    m.databaseStats = { driver: 'pg', read: () => ({ total: 4, idle: 3, waiting: 0 }) };

    const text = await m.registry.metrics();
    expect(text).toContain('vigil_http_requests_total{route="/v1/moderate/text",method="POST",status="200"} 1');
    expect(text).toContain('vigil_http_request_duration_seconds_count{route="/v1/moderate/text",method="POST"} 1');
    expect(text).toContain('vigil_model_inference_seconds_count{model="toxicity"} 1');
    expect(text).toContain('vigil_moderation_batch_size_bucket{le="50"} 1');
    expect(text).toContain('vigil_moderation_batch_size_bucket{le="20"} 0');
    expect(text).toContain('vigil_db_pool_connections{driver="pg",state="idle"} 3');
    expect(text).toContain('vigil_review_queue_pending_writes 0');
  });

  it('reports resident memory per process: http always, the face engine while it runs', async () => {
    const m = createMetrics();
    let text = await m.registry.metrics();
    expect(text).toMatch(/vigil_process_rss_bytes\{process="http"\} [1-9]\d+/);
    expect(text).not.toContain('process="face_engine"');
    expect(text).toContain('vigil_face_engine_up 0');
    m.faceEngineStats = async () => ({ up: true, pid: 4242, rssBytes: 123_456_789 });
    m.faceEngineRestarts.inc();
    text = await m.registry.metrics();
    expect(text).toContain('vigil_process_rss_bytes{process="face_engine"} 123456789');
    expect(text).toContain('vigil_face_engine_up 1');
    expect(text).toContain('vigil_face_engine_pid 4242');
    expect(text).toContain('vigil_face_engine_restarts_total 1');
    m.faceEngineStats = async () => ({ up: false });
    text = await m.registry.metrics();
    expect(text).not.toContain('process="face_engine"');
    expect(text).toContain('vigil_face_engine_pid 0');
  });

  it('times bulk-job chunk steps by step and counts expired jobs', async () => {
    const m = createMetrics();
    m.jobChunkSteps.observe({ step: 'write' }, 0.04);
    m.jobChunkSteps.observe({ step: 'moderate' }, 3.2);
    m.jobsExpired.inc(2);
    const text = await m.registry.metrics();
    expect(text).toContain('vigil_job_chunk_step_seconds_count{step="write"} 1');
    expect(text).toContain('vigil_job_chunk_step_seconds_bucket{le="0.05",step="write"} 1');
    expect(text).toContain('vigil_job_chunk_step_seconds_bucket{le="2.5",step="moderate"} 0');
    expect(text).toContain('vigil_jobs_expired_total 2');
  });

  it('keeps registries apart (a test registry never leaks into another)', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.batchSize.observe(1);
    expect(await b.registry.metrics()).toContain('vigil_moderation_batch_size_count 0');
  });
});

describe('metrics()', () => {
  it('is one registry per process, the process singleton named metrics', () => {
    const m = metrics();
    expect(metrics()).toBe(m);
    expect(
      singleton('metrics', () => {
        throw new Error('a second registry must not be made');
      }),
    ).toBe(m);
  });
});

describe('startRequest', () => {
  it('counts a method outside the ones the API answers as OTHER, so the method label has a fixed set of values', async () => {
    const m = createMetrics();
    for (const method of ['GET', 'PROPFIND', 'M-SEARCH', 'X'.repeat(500)]) startRequest(m, 'v1', method)('/v1/health', 405);
    const methods = new Set((await m.httpRequests.get()).values.map((v) => v.labels.method));
    expect([...methods].sort()).toEqual(['GET', 'OTHER']);
  });
});
