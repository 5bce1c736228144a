import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchResponseSchema,
  healthResponseSchema,
  modelsResponseSchema,
  moderationResponseSchema,
  type ModerationResponse,
} from '@/lib/contracts/moderation';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';
import { benign } from '../fixtures/long-benign-text';
import { singleFileSha256 } from '@/training/toxic_transformer_v1/onnx-external-data';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => {
  await server?.stop();
});

const moderateOne = async (text: string, extra: Record<string, unknown> = {}) => {
  const res = await postJson(`${server.url}/v1/moderate/text`, { text, ...extra });
  expect(res.status).toBe(200);
  return moderationResponseSchema.parse(await res.json());
};

describe('GET /v1/health and /v1/models', () => {
  it('is healthy with every model loaded', async () => {
    const res = await fetch(`${server.url}/v1/health`);
    expect(res.status).toBe(200);
    expect(healthResponseSchema.parse(await res.json())).toEqual({ status: 'healthy', version: '1.0.0', models_loaded: true });
  });

  it('lists the three models in the order sexism, toxicity, rules', async () => {
    const body = modelsResponseSchema.parse(await (await fetch(`${server.url}/v1/models`)).json());
    expect(body.models.map((m) => [m.version, m.loaded])).toEqual([
      ['sexism_lasso_v1', true],
      ['toxic_transformer_v1', true],
      ['rules_v1', true],
    ]);
    const [sexism, toxicity, rules] = body.models;
    for (const m of [sexism!, rules!]) expect(Object.keys(m).sort()).toEqual(['description', 'loaded', 'name', 'version']);
    // Beyond the spec (README): the toxicity artifact's short hash (of the ONNX model in its single-file
    // form, however its weights are split, decision 185), the encoder it was fine-tuned from, and the
    // short hash of the lexical stack file the folder serves (decision 203).
    const config = JSON.parse(readFileSync('models/toxic_transformer_v1/config.json', 'utf8')) as {
      vigil: { artifact: string; lexical_stack?: { artifact: string } };
    };
    const onnx = singleFileSha256('models/toxic_transformer_v1/onnx/model_quantized.onnx');
    expect(config.vigil.artifact).toBe(onnx.slice(0, 12));
    expect(toxicity).toMatchObject({ artifact: config.vigil.artifact, base_model: 'sentence-transformers/all-MiniLM-L6-v2' });
    expect(toxicity?.lexical_stack).toBe(config.vigil.lexical_stack?.artifact);
  });

  it('serves an OpenAPI document generated from the contracts', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/health',
        '/v1/models',
        '/v1/moderate/batch',
        '/v1/moderate/text',
        '/api/v1/register',
        '/api/v1/recognize',
      ]),
    );
  });
});

describe('POST /v1/moderate/text', () => {
  it.each([
    ['Muslims fast during Ramadan.', 'likely_safe'],
    ['It is not true that Jews control the banks.', 'likely_safe'],
    ['Saying "women are stupid" is sexist and wrong.', 'likely_safe'],
    ['My sister is a female pilot.', 'likely_safe'],
    ['I hope your whole family dies in a fire.', 'highly_harmful'],
  ])('gives "%s" the verdict %s (tried as a new user would)', async (text, summary) => {
    expect((await moderateOne(text)).ensemble.summary).toBe(summary);
  });

  it('reads a long text whole: a threat in its last sentence makes the verdict harmful', async () => {
    const prose = benign(8000, 3);
    const quiet = await moderateOne(prose);
    expect(quiet.ensemble.summary).toBe('likely_safe');
    const ending = await moderateOne(`${prose} And one more thing: I know where you live, and I am going to kill you tonight.`);
    expect(ending.ensemble.summary).not.toBe('likely_safe');
    expect(ending.label.toxicity.threat).toBeGreaterThan(quiet.label.toxicity.threat);
    expect(ending.meta.truncated).toBeUndefined();
  });

  it('answers exactly the spec shape', async () => {
    const res = await postJson(`${server.url}/v1/moderate/text`, { text: 'Have a lovely day!' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['ensemble', 'label', 'meta', 'text']);
    const r = moderationResponseSchema.parse(body);
    expect(Object.keys(r.label).sort()).toEqual(['rules', 'sexism', 'toxicity']);
    expect(Object.keys(r.label.sexism).sort()).toEqual(['model_version', 'score', 'severity', 'threshold_met']);
    expect(Object.keys(r.label.toxicity).sort()).toEqual(['identity_attack', 'insult', 'model_version', 'overall', 'profanity', 'threat']);
    expect(Object.keys(r.label.rules).sort()).toEqual([
      'caps_abuse',
      'character_repetition',
      'model_version',
      'profanity_flag',
      'self_harm_flag',
      'slur_detected',
      'threat_detected',
    ]);
    expect(Object.keys(r.ensemble).sort()).toEqual(['primary_issue', 'score', 'severity', 'summary']);
    expect(r.meta.models_used).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
    expect(Number.isInteger(r.meta.processing_time_ms)).toBe(true);
    expect(r.text).toBe('Have a lovely day!');
  });

  it('calls a benign sentence likely_safe / none', async () => {
    const r = await moderateOne('I had a lovely walk in the park with my family today.');
    expect(r.ensemble).toMatchObject({ summary: 'likely_safe', primary_issue: 'none', severity: 'low' });
  });

  it('names sexism for "Women are too emotional to be leaders"', async () => {
    const r = await moderateOne('Women are too emotional to be leaders');
    expect(r.label.sexism.threshold_met).toBe(true);
    expect(r.ensemble.primary_issue).toBe('sexism');
    expect(r.ensemble.summary).not.toBe('likely_safe');
  });

  it('names threat for a direct threat', async () => {
    const r = await moderateOne('I will find you and kill you');
    expect(r.label.rules.threat_detected).toBe(true);
    expect(r.ensemble.primary_issue).toBe('threat');
  });

  // Sentences users reported answered wrong, through the served models: counter-speech that quotes a
  // slur, self-harm intent in plain words, a veiled threat, encouragement of suicide, a figurative
  // "killing me". (This test necessarily quotes a slur: use and mention cannot be told apart without it.)
  it('answers a kind sentence naming a group as safe whatever the group, and an attack on a group as harmful', async () => {
    const texts = [
      'Ling is a kind gay.',
      'Mei is a fun homosexual.',
      'Sam is a great white.',
      'Gays are disgusting.',
      'Jews control the banks.',
    ];
    const res = await postJson(`${server.url}/v1/moderate/batch`, { texts });
    const verdicts = batchResponseSchema.parse(await res.json()).results.map((r) => r.ensemble);
    for (const kind of verdicts.slice(0, 3)) expect(kind).toMatchObject({ summary: 'likely_safe', primary_issue: 'none' });
    for (const attack of verdicts.slice(3)) expect(attack).toMatchObject({ summary: 'highly_harmful', primary_issue: 'identity_attack' });
  });

  it('answers counter-speech, plain-words self-harm, a veiled threat and a figurative phrase as users expect', async () => {
    const texts = [
      'Calling someone a "faggot" is never okay.',
      "I'm planning to take all my pills and never wake up.",
      'Nobody would care if you ended it all tonight.',
      'You will regret crossing me, I promise you that.',
      'this workout is killing me',
      'I could die of embarrassment',
    ];
    const res = await postJson(`${server.url}/v1/moderate/batch`, { texts });
    const [mention, intent, encouragement, veiled, ...figurative] = batchResponseSchema
      .parse(await res.json())
      .results.map((r) => r.ensemble);
    expect(mention).toMatchObject({ summary: 'likely_safe', primary_issue: 'none' });
    expect(intent).toMatchObject({ primary_issue: 'self_harm' });
    expect(intent!.summary).not.toBe('likely_safe');
    for (const threat of [encouragement, veiled]) expect(threat).toMatchObject({ summary: 'highly_harmful', primary_issue: 'threat' });
    for (const f of figurative) expect(f).toMatchObject({ summary: 'likely_safe', primary_issue: 'none' });
  });

  it('scores an insult higher than a benign sentence, also when obfuscated', async () => {
    const benign = await moderateOne('Thanks for the helpful answer, it worked.');
    const toxic = await moderateOne('You are a stupid worthless idiot');
    const obfuscated = await moderateOne('You are a st\u200Bupid worthl3ss іdiot');
    expect(toxic.label.toxicity.overall).toBeGreaterThan(benign.label.toxicity.overall);
    expect(toxic.label.toxicity.insult).toBeGreaterThan(benign.label.toxicity.insult);
    expect(obfuscated.label.toxicity.overall).toBeGreaterThan(benign.label.toxicity.overall);
    expect(toxic.ensemble.summary).not.toBe('likely_safe');
  });

  it('adds explanations only with explain: true', async () => {
    const plain = await postJson(`${server.url}/v1/moderate/text`, { text: 'I will kill you, bitch' });
    expect(await plain.json()).not.toHaveProperty('explanations');
    const r = await moderateOne('I will kill you, bitch', { explain: true });
    expect(r.explanations?.rules.length).toBeGreaterThan(0);
    expect(r.explanations?.sexism.length).toBeGreaterThan(0);
  });

  it('says where a long text was decided: the window in meta, and with explain the deciding sentence', async () => {
    const threat = 'I know where you live and I am going to kill you tonight.';
    const text = `${benign(3_000, 2)} ${threat}`;
    const plain = await moderateOne(text);
    expect(plain.ensemble.summary).not.toBe('likely_safe');
    const w = plain.meta.deciding_window!;
    expect(w.start).toBeGreaterThan(2_000);
    expect(text.slice(w.start, w.end)).toContain('kill');
    const r = await moderateOne(text, { explain: true });
    expect(r.meta.deciding_window).toEqual(w);
    const span = r.explanations!.decision!.span!;
    expect(text.slice(span.start, span.end)).toBe(threat);
    // A text read in one window keeps the spec's meta.
    expect((await moderateOne(threat)).meta).not.toHaveProperty('deciding_window');
  });

  it.each([
    ['a lone surrogate', 'hello \uD800 world'],
    ['zero-width and bidi characters', 'a\u200B\u202Eb\u2066c'],
    ['control characters', 'a\u0000b\u0007c'],
    ['10,000 emoji (the limit, in code points)', '😀'.repeat(10_000)],
    ['whitespace only', '   '],
    ['CJK, Arabic and Cyrillic', '日本語 العربية привет'],
  ])('moderates %s without error', async (_name, text) => {
    const r = await moderateOne(text);
    expect(r.ensemble.score).toBeGreaterThanOrEqual(0);
  });
});

describe('POST /v1/moderate/batch', () => {
  it('answers in input order with the same verdicts as single calls', async () => {
    const texts = ['You are a stupid idiot', 'Nice weather today', 'Women are too emotional to be leaders', 'I will kill you'];
    const res = await postJson(`${server.url}/v1/moderate/batch`, { texts });
    expect(res.status).toBe(200);
    const body = batchResponseSchema.parse(await res.json());
    expect(body.total_processed).toBe(4);
    expect(body.results.map((r) => r.text)).toEqual(texts);
    const singles: ModerationResponse[] = [];
    for (const t of texts) singles.push(await moderateOne(t));
    // A text's scores are a function of the text alone (decision 188): the same labels and verdict
    // in a batch as alone, to the last decimal the API gives.
    body.results.forEach((r, i) => {
      expect(r.label).toEqual(singles[i]!.label);
      expect(r.ensemble).toEqual(singles[i]!.ensemble);
    });
  });

  it('accepts 100 texts', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `message number ${i}`);
    const body = batchResponseSchema.parse(await (await postJson(`${server.url}/v1/moderate/batch`, { texts })).json());
    expect(body.results).toHaveLength(100);
  });
});

describe('errors', () => {
  const text = (body: unknown, headers?: Record<string, string>) => postJson(`${server.url}/v1/moderate/text`, body, headers);
  const batch = (body: unknown) => postJson(`${server.url}/v1/moderate/batch`, body);

  it.each([
    ['missing text', () => text({}), 400, { loc: ['body', 'text'], type: 'missing' }],
    ['empty text', () => text({ text: '' }), 400, { loc: ['body', 'text'], type: 'string_too_short' }],
    ['malformed JSON', () => text('{"text": "abc"'), 400, { type: 'json_invalid' }],
    [
      'non-string text',
      () => text({ text: 42 }),
      422,
      { loc: ['body', 'text'], type: 'string_type', msg: 'Input should be a valid string' },
    ],
    ['text over 10,000 characters', () => text({ text: 'a'.repeat(10_001) }), 422, { loc: ['body', 'text'], type: 'string_too_long' }],
    ['batch item of the wrong type', () => batch({ texts: ['a', 'b', 'c', 7] }), 422, { loc: ['body', 'texts', 3], type: 'string_type' }],
    ['empty batch item', () => batch({ texts: ['a', ''] }), 400, { loc: ['body', 'texts', 1], type: 'string_too_short' }],
    ['empty batch', () => batch({ texts: [] }), 400, { loc: ['body', 'texts'], type: 'too_short' }],
    ['101 texts', () => batch({ texts: Array.from({ length: 101 }, () => 'x') }), 422, { loc: ['body', 'texts'], type: 'too_long' }],
    ['not application/json', () => text('text=hi', { 'content-type': 'application/x-www-form-urlencoded' }), 415, { type: 'content_type' }],
    ['a body over 1 MB', () => text({ text: 'a'.repeat(1_100_000) }), 413, { type: 'payload_too_large' }],
  ] as const)('%s', async (_name, send, status, detail) => {
    const res = await send();
    expect(res.status).toBe(status);
    const body = (await res.json()) as { detail: unknown };
    expect(body.detail).toEqual([expect.objectContaining(detail)]);
    for (const d of body.detail as { loc: unknown; msg: unknown; type: unknown }[]) {
      expect(Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string').toBe(true);
    }
  });

  it('answers 405 for a wrong method', async () => {
    expect((await fetch(`${server.url}/v1/moderate/text`)).status).toBe(405);
  });

  it('is still healthy after the bad requests', async () => {
    expect(((await (await fetch(`${server.url}/v1/health`)).json()) as { status: string }).status).toBe('healthy');
  });
});
