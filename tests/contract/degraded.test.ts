import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

// A model folder that does not exist: the server starts, reports degraded, and refuses to
// moderate with 503 rather than crashing or answering with two models.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ TOXICITY_MODEL_DIR: '/nonexistent/toxic_transformer_v1' });
});
afterAll(async () => {
  await server?.stop();
});

describe('a model that fails to load', () => {
  it('turns health degraded', async () => {
    const res = await fetch(`${server.url}/v1/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'degraded', version: '1.0.0', models_loaded: false });
  });

  it('is reported as not loaded, the others as loaded', async () => {
    const body = (await (await fetch(`${server.url}/v1/models`)).json()) as { models: { version: string; loaded: boolean }[] };
    expect(body.models.map((m) => [m.version, m.loaded])).toEqual([
      ['sexism_lasso_v1', true],
      ['toxic_transformer_v1', false],
      ['rules_v1', true],
    ]);
  });

  it('makes moderation answer 503 with a detail message', async () => {
    for (const [path, body] of [
      ['/v1/moderate/text', { text: 'hello' }],
      ['/v1/moderate/batch', { texts: ['hello'] }],
    ] as const) {
      const res = await postJson(`${server.url}${path}`, body);
      expect(res.status).toBe(503);
      const json = (await res.json()) as { detail: string };
      expect(json.detail).toContain('toxic_transformer_v1');
      expect(json.detail).not.toMatch(/\n\s+at /); // no stack trace
    }
  });

  it('still validates requests first', async () => {
    expect((await postJson(`${server.url}/v1/moderate/text`, {})).status).toBe(400);
  });
});
