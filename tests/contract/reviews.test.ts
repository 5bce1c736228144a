/**
 * /api/v1/reviews against the production build: server-side moderations that are not
 * `likely_safe` are recorded; listing, filters, decisions (idempotent per client_decision_id),
 * the audit log and its CSV export; REVIEW_QUEUE=false; moderation keeps answering with the
 * database down. Each server gets a fresh DATA_DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';
import {
  auditListEnvelopeSchema,
  decisionEnvelopeSchema,
  reviewExplanationEnvelopeSchema,
  reviewListEnvelopeSchema,
  undoEnvelopeSchema,
} from '@/lib/contracts/reviews';
import { sessionEnvelopeSchema } from '@/lib/contracts/session';
import { keyId } from '@/lib/auth/api-keys';
import { parse as parseCsv } from 'csv-parse/sync';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

const TOXIC = 'You are a pathetic idiot and nobody will ever like you.';
const THREAT = 'I know where you live and I am going to kill you tonight.';
const BENIGN = 'Thanks for sharing the meeting notes, they were really helpful.';

const tempDirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'vigil-reviews-'));
  tempDirs.push(d);
  return d;
};
afterAll(() => tempDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function pollReviews(url: string, query: string, until: (total: number) => boolean) {
  for (let i = 0; i < 60; i++) {
    const body = reviewListEnvelopeSchema.parse(await (await fetch(`${url}/api/v1/reviews${query}`)).json());
    if (body.success && until(body.data.total)) return body.data;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`reviews ${query} never satisfied the condition`);
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = errorEnvelopeSchema.parse(await res.json());
  expect(body.error.code).toBe(code);
  return body.error.message;
}

describe('review queue (REVIEW_QUEUE on)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: freshDir(), RATE_LIMIT_PER_MINUTE: '0', FACE_WARM_ON_START: 'false' });
  });
  afterAll(async () => server?.stop());

  let toxicId = '';
  let threatId = '';
  let pendingOthers: string[] = [];

  it('records harmful server verdicts (text and batch), not likely_safe ones, newest first', async () => {
    // Which texts are harmful is the models' call; the queue must follow the answers given.
    const summaries = new Map<string, string>();
    for (const text of [BENIGN, TOXIC]) {
      const res = await postJson(`${server.url}/v1/moderate/text`, { text });
      expect(res.status).toBe(200);
      summaries.set(text, ((await res.json()) as { ensemble: { summary: string } }).ensemble.summary);
    }
    const batch = await postJson(`${server.url}/v1/moderate/batch`, { texts: [BENIGN, THREAT] });
    expect(batch.status).toBe(200);
    const results = ((await batch.json()) as { results: { text: string; ensemble: { summary: string } }[] }).results;
    expect(summaries.get(TOXIC)).not.toBe('likely_safe');
    expect(results[1]!.ensemble.summary).not.toBe('likely_safe');
    const expected = [
      ...results
        .filter((r) => r.ensemble.summary !== 'likely_safe')
        .map((r) => r.text)
        .reverse(),
      ...[TOXIC, BENIGN].filter((t) => summaries.get(t) !== 'likely_safe'),
    ];
    const list = await pollReviews(server.url, '', (t) => t >= expected.length);
    // Batch items share one timestamp; compare as sets within it, order across requests.
    expect(new Set(list.items.map((i) => i.text))).toEqual(new Set(expected));
    expect(list.items.at(-1)!.text).toBe(summaries.get(BENIGN) === 'likely_safe' ? TOXIC : BENIGN);
    expect(list).toMatchObject({ total: expected.length, limit: 50, offset: 0 });
    const threat = list.items.find((i) => i.text === THREAT)!;
    const toxic = list.items.find((i) => i.text === TOXIC)!;
    expect(threat.status).toBe('pending');
    expect(threat.summary).not.toBe('likely_safe');
    expect(threat.model_versions).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
    expect(threat.verdict).toHaveProperty('ensemble.summary', threat.summary);
    expect(threat.decided_at).toBeNull();
    threatId = threat.review_id;
    toxicId = toxic.review_id;
    pendingOthers = list.items.filter((i) => i.review_id !== threatId && i.review_id !== toxicId).map((i) => i.review_id);
  });

  it('filters by primary issue and severity', async () => {
    const all = await pollReviews(server.url, '', (t) => t >= 2);
    const threat = all.items.find((i) => i.review_id === threatId)!;
    const byIssue = await pollReviews(server.url, `?primary_issue=${threat.primary_issue}&severity=${threat.severity}`, (t) => t >= 1);
    expect(byIssue.items.map((i) => i.review_id)).toContain(threatId);
    expect(byIssue.items.every((i) => i.primary_issue === threat.primary_issue && i.severity === threat.severity)).toBe(true);
    const res = await fetch(`${server.url}/api/v1/reviews?severity=extreme`);
    expect(await expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/severity/);
    await expectError(await fetch(`${server.url}/api/v1/reviews?limit=0`), 400, 'VALIDATION_ERROR');
  });

  it('confirms with who, when and a note; a replayed client_decision_id is stored once', async () => {
    const body = { decision: 'confirm', moderator: 'ana', note: 'clear insult', client_decision_id: 'e2e-0000-0001' };
    const res = await postJson(`${server.url}/api/v1/reviews/${toxicId}/decision`, body);
    expect(res.status).toBe(200);
    const first = decisionEnvelopeSchema.parse(await res.json());
    if (!first.success) throw new Error('expected success');
    expect(first.data.duplicate).toBe(false);
    expect(first.data.item).toMatchObject({ review_id: toxicId, status: 'confirmed', decided_by: 'ana' });
    expect(first.data.entry).toMatchObject({ review_id: toxicId, decision: 'confirm', moderator: 'ana', note: 'clear insult' });

    const again = decisionEnvelopeSchema.parse(await (await postJson(`${server.url}/api/v1/reviews/${toxicId}/decision`, body)).json());
    if (!again.success) throw new Error('expected success');
    expect(again.data.duplicate).toBe(true);
    expect(again.data.entry.decision_id).toBe(first.data.entry.decision_id);

    const pending = await pollReviews(server.url, '', () => true);
    expect(pending.items.map((i) => i.review_id).sort()).toEqual([threatId, ...pendingOthers].sort());
  });

  it('overturns with the default moderator name', async () => {
    const res = await postJson(`${server.url}/api/v1/reviews/${threatId}/decision`, { decision: 'overturn' });
    const body = decisionEnvelopeSchema.parse(await res.json());
    if (!body.success) throw new Error('expected success');
    expect(body.data.item.status).toBe('overturned');
    expect(body.data.entry).toMatchObject({ moderator: 'moderator', note: '' });
  });

  it('validates decisions', async () => {
    const url = `${server.url}/api/v1/reviews/${threatId}/decision`;
    expect(await expectError(await postJson(url, { decision: 'maybe' }), 400, 'VALIDATION_ERROR')).toMatch(/decision/);
    expect(await expectError(await postJson(url, {}), 400, 'VALIDATION_ERROR')).toMatch(/decision/);
    // A present field of the wrong type is not "required" (as the persons routes already said).
    expect(await expectError(await postJson(url, { decision: 'confirm', moderator: 5 }), 400, 'VALIDATION_ERROR')).toBe(
      "Field 'moderator': expected string",
    );
    expect(await expectError(await postJson(url, { decision: 'confirm', note: ['x'] }), 400, 'VALIDATION_ERROR')).toBe(
      "Field 'note': expected string",
    );
    expect(await expectError(await postJson(url, { decision: 'confirm', extra: 1 }), 400, 'VALIDATION_ERROR')).toMatch(/extra/);
    await expectError(await postJson(url, '{not json'), 400, 'VALIDATION_ERROR');
    await expectError(await postJson(url, { decision: 'confirm', moderator: '   ' }), 400, 'VALIDATION_ERROR');
    await expectError(
      await fetch(url, { method: 'POST', body: 'decision=confirm', headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectError(
      await postJson(`${server.url}/api/v1/reviews/00000000-0000-4000-8000-000000000000/decision`, { decision: 'confirm' }),
      404,
      'NOT_FOUND',
    );
    await expectError(await postJson(`${server.url}/api/v1/reviews/not-a-uuid/decision`, { decision: 'confirm' }), 404, 'NOT_FOUND');
  });

  it('lists the audit log newest first and exports it as CSV', async () => {
    const audit = auditListEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/reviews/audit`)).json());
    if (!audit.success) throw new Error('expected success');
    expect(audit.data.total).toBe(2);
    expect(audit.data.entries.map((e) => e.review_id)).toEqual([threatId, toxicId]);

    const res = await fetch(`${server.url}/api/v1/reviews/audit/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="vigil-audit-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = parseCsv(await res.text(), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.review_id, r.decision, r.moderator, r.note])).toEqual([
      [toxicId, 'confirm', 'ana', 'clear insult'],
      [threatId, 'overturn', 'moderator', ''],
    ]);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/reviews'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/v1/reviews/{review_id}/decision'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/v1/reviews/audit'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/v1/reviews/audit/export'] ?? {})).toContain('get');
  });
});

describe('REVIEW_QUEUE=false and a database that is down', () => {
  it.each(['false', 'off'])('records nothing when the queue is off (REVIEW_QUEUE=%s)', { timeout: 180_000 }, async (setting) => {
    const server = await startServer({
      DATA_DIR: freshDir(),
      RATE_LIMIT_PER_MINUTE: '0',
      REVIEW_QUEUE: setting,
      FACE_WARM_ON_START: 'false',
    });
    try {
      expect((await postJson(`${server.url}/v1/moderate/text`, { text: TOXIC })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      const list = reviewListEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/reviews`)).json());
      expect(list.success && list.data.total).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('keeps moderating when the database is unreachable; the review endpoints answer 503', async () => {
    const server = await startServer({
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_WARM_ON_START: 'false',
      DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:9/vigil',
      DATABASE_DRIVER: 'pg',
    });
    try {
      for (const text of [TOXIC, THREAT]) {
        const started = Date.now();
        const res = await postJson(`${server.url}/v1/moderate/text`, { text });
        expect(res.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(5_000);
      }
      await expectError(await fetch(`${server.url}/api/v1/reviews`), 503, 'DATABASE_UNAVAILABLE');
      await expectError(await fetch(`${server.url}/api/v1/reviews/audit/export`), 503, 'DATABASE_UNAVAILABLE');
    } finally {
      await server.stop();
    }
  });
});

/** Distinct texts the rules flag as threats (the queue only holds what the server flagged). */
const threats = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `I am going to kill you, ${tag} number ${i}`);

async function listData(url: string, query = '', headers: Record<string, string> = {}) {
  const body = reviewListEnvelopeSchema.parse(await (await fetch(`${url}/api/v1/reviews${query}`, { headers })).json());
  if (!body.success) throw new Error(body.error.message);
  return body.data;
}

describe('review queue for triage (decision 065)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: freshDir(),
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_WARM_ON_START: 'false',
      REVIEW_UNDO_SECONDS: '60',
    });
  });
  afterAll(async () => server?.stop());

  it('keeps one item per normalised text with its count, first/last seen and sources', async () => {
    expect((await postJson(`${server.url}/v1/moderate/text`, { text: TOXIC })).status).toBe(200);
    expect((await postJson(`${server.url}/v1/moderate/batch`, { texts: [TOXIC, ` ${TOXIC.replace(/ /g, '   ')}`] })).status).toBe(200);
    const data = await pollReviews(server.url, '', (t) => t >= 1);
    await new Promise((r) => setTimeout(r, 500));
    const after = await listData(server.url);
    expect(after.total).toBe(1);
    expect(after.items[0]).toMatchObject({ text: TOXIC, seen_count: 3, sources: ['batch', 'text'] });
    expect(Date.parse(after.items[0]!.last_seen_at)).toBeGreaterThan(Date.parse(after.items[0]!.first_seen_at));
    expect(data.items[0]!.review_id).toBe(after.items[0]!.review_id);
  });

  it('pages by cursor, searches the text, filters by source and date, and refuses a forged cursor', async () => {
    const texts = threats('paging', 7);
    expect((await postJson(`${server.url}/v1/moderate/batch`, { texts })).status).toBe(200);
    await pollReviews(server.url, '?q=paging', (t) => t === 7);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listData>> = await listData(
        server.url,
        `?q=paging&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.total).toBe(7);
      seen.push(...page.items.map((i) => i.text!));
      cursor = page.next_cursor;
    } while (cursor);
    expect(new Set(seen)).toEqual(new Set(texts));
    expect((await listData(server.url, '?q=PAGING%20NUMBER%203')).items.map((i) => i.text)).toEqual([texts[3]]);
    expect((await listData(server.url, '?q=paging&source=text')).total).toBe(0);
    expect((await listData(server.url, '?q=paging&source=batch')).total).toBe(7);
    expect((await listData(server.url, `?q=paging&from=${new Date(Date.now() + 3_600_000).toISOString()}`)).total).toBe(0);
    expect((await listData(server.url, `?q=paging&to=${new Date(Date.now() + 3_600_000).toISOString()}`)).total).toBe(7);
    expect(await expectError(await fetch(`${server.url}/api/v1/reviews?cursor=bm90LWEtY3Vyc29y`), 400, 'VALIDATION_ERROR')).toMatch(
      /cursor/,
    );
    expect(await expectError(await fetch(`${server.url}/api/v1/reviews?source=email`), 400, 'VALIDATION_ERROR')).toMatch(/source/);
  });

  it('undoes a decision within REVIEW_UNDO_SECONDS and records the undo in the audit log', async () => {
    const [item] = (await listData(server.url, '?q=paging%20number%200')).items;
    const decided = await postJson(`${server.url}/api/v1/reviews/${item!.review_id}/decision`, { decision: 'confirm', moderator: 'ana' });
    expect(decided.status).toBe(200);
    expect((await listData(server.url, '?status=confirmed&q=paging')).total).toBe(1);
    const res = await fetch(`${server.url}/api/v1/reviews/${item!.review_id}/undo`, { method: 'POST' });
    expect(res.status).toBe(200);
    const body = undoEnvelopeSchema.parse(await res.json());
    if (!body.success) throw new Error('expected success');
    expect(body.data.item).toMatchObject({ status: 'pending', decided_by: null });
    // The undo row says what happened and to which verdict (without a body: the default moderator).
    expect(body.data.entry).toMatchObject({ action: 'undone', decision: 'confirm', moderator: 'moderator', review_id: item!.review_id });
    await expectError(await fetch(`${server.url}/api/v1/reviews/${item!.review_id}/undo`, { method: 'POST' }), 409, 'UNDO_NOT_POSSIBLE');
    await expectError(
      await fetch(`${server.url}/api/v1/reviews/00000000-0000-4000-8000-000000000000/undo`, { method: 'POST' }),
      404,
      'NOT_FOUND',
    );
    const audit = auditListEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/reviews/audit`)).json());
    expect(audit.success && audit.data.entries.slice(0, 2).map((e) => [e.action, e.decision])).toEqual([
      ['undone', 'confirm'],
      ['decided', 'confirm'],
    ]);
  });

  it('explains why an item was flagged without counting another sighting', async () => {
    const [item] = (await listData(server.url, '?q=paging%20number%201')).items;
    const res = await fetch(`${server.url}/api/v1/reviews/${item!.review_id}/explain`);
    expect(res.status).toBe(200);
    const body = reviewExplanationEnvelopeSchema.parse(await res.json());
    if (!body.success) throw new Error('expected success');
    expect(body.data.explanations.decision?.model).toMatch(/^(rules_v1|toxic_transformer_v1|sexism_lasso_v1)$/);
    // "I am going to kill you, paging number 1" has under 40 letters: too short to tell its
    // language, so none is guessed and no warning is given (decision 197).
    expect(body.data.explanations.language).toEqual({ code: 'und', non_english: false });
    expect(body.data.explanations.rules.length).toBeGreaterThan(0);
    expect((await listData(server.url, '?q=paging%20number%201')).items[0]!.seen_count).toBe(1);
    await expectError(await fetch(`${server.url}/api/v1/reviews/00000000-0000-4000-8000-000000000000/explain`), 404, 'NOT_FOUND');
  });

  it('keeps the default /v1 answer in the spec shape; explain adds the deciding model and the language', async () => {
    const plain = (await (
      await postJson(`${server.url}/v1/moderate/text`, { text: 'Las mujeres no deberían votar porque son demasiado emocionales.' })
    ).json()) as Record<string, unknown>;
    expect(Object.keys(plain).sort()).toEqual(['ensemble', 'label', 'meta', 'text']);
    const explained = (await (
      await postJson(`${server.url}/v1/moderate/text`, {
        text: 'Las mujeres no deberían votar porque son demasiado emocionales.',
        explain: true,
      })
    ).json()) as { explanations: { language: { code: string; non_english: boolean }; decision: { model: string } } };
    expect(explained.explanations.language).toEqual({ code: 'spa', non_english: true });
    expect(explained.explanations.decision.model).toBeTruthy();
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/reviews/{review_id}/undo'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/v1/reviews/{review_id}/explain'] ?? {})).toContain('get');
  });
});

describe('review queue bounds', () => {
  it('stores at most REVIEW_QUOTA_PER_HOUR new texts per client; sightings of queued texts still count', async () => {
    const server = await startServer({
      DATA_DIR: freshDir(),
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_WARM_ON_START: 'false',
      REVIEW_QUOTA_PER_HOUR: '3',
    });
    try {
      // Insults: threats are always queued (docs/decisions/160).
      const texts = Array.from({ length: 5 }, (_, i) => `You are a pathetic idiot, quota number ${i}`);
      expect((await postJson(`${server.url}/v1/moderate/batch`, { texts })).status).toBe(200);
      const first = await pollReviews(server.url, '', (t) => t >= 3);
      await new Promise((r) => setTimeout(r, 500));
      expect((await listData(server.url)).total).toBe(3);
      // Over quota: new texts are answered but not stored; a queued one is counted again.
      const again = await postJson(`${server.url}/v1/moderate/batch`, {
        texts: [first.items[0]!.text!, 'You are a pathetic idiot, quota extra'],
      });
      expect(again.status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_000));
      const after = await listData(server.url);
      expect(after.total).toBe(3);
      expect(after.items.find((i) => i.text === first.items[0]!.text)!.seen_count).toBe(2);
    } finally {
      await server.stop();
    }
  });

  it('evicts the oldest pending items beyond REVIEW_MAX_ITEMS', async () => {
    const server = await startServer({
      DATA_DIR: freshDir(),
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_WARM_ON_START: 'false',
      REVIEW_MAX_ITEMS: '10',
    });
    try {
      const oldest = threats('cap-old', 8);
      expect((await postJson(`${server.url}/v1/moderate/batch`, { texts: oldest })).status).toBe(200);
      await pollReviews(server.url, '', (t) => t >= 8);
      const newer = threats('cap-new', 6);
      expect((await postJson(`${server.url}/v1/moderate/batch`, { texts: newer })).status).toBe(200);
      const data = await pollReviews(server.url, '?q=cap-new', (t) => t >= 6);
      expect(data.total).toBe(6);
      const all = await listData(server.url, '?limit=50');
      expect(all.total).toBe(10);
      expect(all.items.filter((i) => i.text!.includes('cap-old'))).toHaveLength(4);
    } finally {
      await server.stop();
    }
  });

  it('records decisions against the API key, not the name in the body, when API_KEYS is set', async () => {
    const key = 'contract-test-key-0123456789';
    const server = await startServer({ DATA_DIR: freshDir(), RATE_LIMIT_PER_MINUTE: '0', FACE_WARM_ON_START: 'false', API_KEYS: key });
    const auth = { authorization: `Bearer ${key}` };
    try {
      expect((await postJson(`${server.url}/v1/moderate/text`, { text: THREAT })).status).toBe(200);
      let item: Awaited<ReturnType<typeof listData>>['items'][number] | undefined;
      for (let i = 0; i < 40 && !item; i++) {
        item = (await listData(server.url, '', auth)).items[0];
        if (!item) await new Promise((r) => setTimeout(r, 250));
      }
      const res = await postJson(
        `${server.url}/api/v1/reviews/${item!.review_id}/decision`,
        { decision: 'confirm', moderator: 'someone-else' },
        auth,
      );
      const body = decisionEnvelopeSchema.parse(await res.json());
      if (!body.success) throw new Error(body.error.message);
      expect(body.data.entry.moderator).toBe(`key:${keyId(key)}`);
      expect(body.data.item.decided_by).toBe(`key:${keyId(key)}`);
      const session = sessionEnvelopeSchema.parse(await (await fetch(`${server.url}/api/v1/session`, { headers: auth })).json());
      expect(session.success && session.data.moderator).toBe(`key:${keyId(key)}`);
    } finally {
      await server.stop();
    }
  });
});
