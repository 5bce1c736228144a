/**
 * Faults against the production build: corrupt model files (a truncated ONNX graph, a model.json
 * that is not JSON) and a database that cannot be reached (PostgreSQL on a closed port, a PGlite
 * directory that cannot be created). Each must degrade to the documented 503s without crashing;
 * moderation keeps working without the database. (A missing model file: degraded.test.ts.)
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelopeError, imageForm, photo, tempDirs } from './fixtures';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const dirs = tempDirs('vigil-faults-');
afterAll(() => dirs.cleanup());

describe('corrupt model files', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const dir = dirs.make();
    const toxicity = path.join(dir, 'toxicity');
    const served = 'models/toxic_transformer_v1';
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) cpSync(path.join(served, f), path.join(toxicity, f));
    // The real graph cut short: a plausible header, then nothing.
    cpSync(path.join(served, 'onnx'), path.join(toxicity, 'onnx'), { recursive: true });
    writeFileSync(
      path.join(toxicity, 'onnx', 'model_quantized.onnx'),
      readFileSync(path.join(served, 'onnx', 'model_quantized.onnx')).subarray(0, 4096),
    );
    const json = path.join(dir, 'model.json');
    writeFileSync(json, '{"version": "sexism_lasso_v1", "vocabulary": [\u0000\u00ff garbage');
    server = await startServer({
      TOXICITY_MODEL_DIR: toxicity,
      SEXISM_MODEL_PATH: json,
      DATA_DIR: ':memory:',
      FACE_WARM_ON_START: 'false',
    });
  });
  afterAll(async () => server?.stop());

  it('reports health degraded and names the models that failed', async () => {
    expect(await (await fetch(`${server.url}/v1/health`)).json()).toEqual({ status: 'degraded', version: '1.0.0', models_loaded: false });
    const body = (await (await fetch(`${server.url}/v1/models`)).json()) as { models: { version: string; loaded: boolean }[] };
    expect(body.models.map((m) => [m.version, m.loaded])).toEqual([
      ['sexism_lasso_v1', false],
      ['toxic_transformer_v1', false],
      ['rules_v1', true],
    ]);
  });

  it('answers moderation with the documented 503, repeatedly, and keeps running', async () => {
    for (let i = 0; i < 3; i++) {
      for (const [p, body] of [
        ['/v1/moderate/text', { text: 'hello' }],
        ['/v1/moderate/batch', { texts: ['hello', 'world'] }],
      ] as const) {
        const res = await postJson(`${server.url}${p}`, body);
        expect(res.status).toBe(503);
        const json = (await res.json()) as { detail: string };
        expect(json.detail).toMatch(/^Moderation unavailable: /);
        expect(json.detail).not.toMatch(/\n\s+at /);
      }
    }
    expect(server.process.exitCode).toBeNull();
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
  });
});

/** Every memory-bank and review endpoint, with a body each would accept. */
function databaseEndpoints(url: string): [string, () => Promise<Response>][] {
  const id = '00000000-0000-4000-8000-000000000000';
  const face = () => imageForm({ name: 'Barack Obama' }, photo('train/obama/obama.jpg'));
  return [
    ['register', () => fetch(`${url}/api/v1/register`, { method: 'POST', body: face() })],
    ['recognize', () => fetch(`${url}/api/v1/recognize`, { method: 'POST', body: face() })],
    ['add face', () => fetch(`${url}/api/v1/persons/${id}/faces`, { method: 'POST', body: face() })],
    ['list persons', () => fetch(`${url}/api/v1/persons`)],
    ['get person', () => fetch(`${url}/api/v1/persons/${id}`)],
    [
      'patch person',
      () =>
        fetch(`${url}/api/v1/persons/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' }),
    ],
    ['delete person', () => fetch(`${url}/api/v1/persons/${id}`, { method: 'DELETE' })],
    ['list reviews', () => fetch(`${url}/api/v1/reviews`)],
    ['decide review', () => postJson(`${url}/api/v1/reviews/${id}/decision`, { decision: 'confirm' })],
    ['audit', () => fetch(`${url}/api/v1/reviews/audit`)],
    ['audit export', () => fetch(`${url}/api/v1/reviews/audit/export`)],
  ];
}

describe.each([
  ['PostgreSQL on a closed port', () => ({ DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:9/vigil', DATABASE_DRIVER: 'pg' })],
  [
    'a PGlite directory that cannot be created',
    () => {
      const file = path.join(dirs.make(), 'not-a-directory');
      writeFileSync(file, 'x');
      return { DATA_DIR: file };
    },
  ],
])('a database that cannot be reached: %s', (_label, dbEnv) => {
  let server: RunningServer;
  beforeAll(async () => {
    // A real limit: with DATABASE_URL the counters would live in the database, so this also
    // checks that the limiter falls back to memory instead of failing moderation.
    server = await startServer({ ...dbEnv(), RATE_LIMIT_PER_MINUTE: '1000', FACE_WARM_ON_START: 'false' });
  });
  afterAll(async () => server?.stop());

  it('answers every memory-bank and review endpoint 503 DATABASE_UNAVAILABLE with Retry-After', async () => {
    for (const [label, send] of databaseEndpoints(server.url)) {
      const res = await send();
      expect(res.headers.get('retry-after'), label).toBe('30');
      await expectEnvelopeError(res, 503, 'DATABASE_UNAVAILABLE');
    }
  });

  it('keeps moderating, with the rate limit still applied, and health reports the models', async () => {
    const res = await postJson(`${server.url}/v1/moderate/text`, { text: 'You are a pathetic idiot.' });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('1000');
    expect((await postJson(`${server.url}/v1/moderate/batch`, { texts: ['a', 'b'] })).status).toBe(200);
    expect(await (await fetch(`${server.url}/v1/health`)).json()).toEqual({ status: 'healthy', version: '1.0.0', models_loaded: true });
    expect(server.process.exitCode).toBeNull();
  });
});
