/**
 * The audit log as evidence and the review quota per key, against the production build
 * (docs/decisions/160): undo and reopen recorded against who took the decision back, with reason
 * codes checked against REVIEW_REASON_CODES; the audit log filtered, paged by cursor to the first
 * entry and exported as filtered; the quota per API key (a keyless client keeps its address's),
 * critical verdicts always queued, and what was not queued counted per key and reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyId } from '@/lib/auth/api-keys';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';
import { notQueuedEnvelopeSchema, reviewConfigEnvelopeSchema } from '@/lib/contracts/review-console';
import { auditListEnvelopeSchema, reviewListEnvelopeSchema, undoEnvelopeSchema, type AuditList } from '@/lib/contracts/reviews';
import { startServer, type RunningServer } from '../../scripts/lib/server';

const KEY_A = 'a'.repeat(24);
const KEY_B = 'b'.repeat(24);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const freshDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'vigil-audit-'));
  dirs.push(d);
  return d;
};

describe('audit log, reason codes, reopen and the per-key quota', () => {
  let server: RunningServer;
  const call = (p: string, init: RequestInit & { key?: string; json?: unknown } = {}) =>
    fetch(`${server.url}${p}`, {
      ...init,
      headers: {
        authorization: `Bearer ${init.key ?? KEY_A}`,
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
  const moderate = (texts: string[], key?: string) =>
    fetch(`${server.url}/v1/moderate/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ texts }),
    });
  async function items(q: string) {
    for (let i = 0; i < 60; i++) {
      const body = reviewListEnvelopeSchema.parse(
        await (await call(`/api/v1/reviews?status=all&limit=200&q=${encodeURIComponent(q)}`)).json(),
      );
      if (body.success && body.data.total > 0) return body.data.items;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`no review items for ${q}`);
  }
  const audit = async (query: string): Promise<AuditList> => {
    const body = auditListEnvelopeSchema.parse(await (await call(`/api/v1/reviews/audit?${query}`)).json());
    if (!body.success) throw new Error('expected success');
    return body.data;
  };

  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: freshDir(),
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_WARM_ON_START: 'false',
      API_KEYS: `${KEY_A},${KEY_B}`,
      REVIEW_QUOTA_PER_KEY_PER_HOUR: '3',
      REVIEW_QUOTA_PER_HOUR: '1',
      REVIEW_UNDO_SECONDS: '90',
    });
  });
  afterAll(async () => server?.stop());

  it('tells the console its undo window, reason codes and quotas', async () => {
    const body = reviewConfigEnvelopeSchema.parse(await (await call('/api/v1/reviews/config')).json());
    if (!body.success) throw new Error('expected success');
    expect(body.data.undo_seconds).toBe(90);
    expect(body.data.quota).toEqual({ per_key_per_hour: 3, per_address_per_hour: 1 });
    expect(body.data.reason_codes).toContainEqual({ code: 'false positive: reclaimed word', decision: 'overturn' });
    expect(body.data.reason_codes).toContainEqual({ code: 'harassment', decision: 'confirm' });
  });

  it('spends the quota per key, queues critical verdicts regardless, keeps the rest in the backlog and counts it', async () => {
    const plain = (who: string, n: number) => Array.from({ length: n }, (_, i) => `You are a pathetic idiot, ${who} number ${i}.`);
    expect((await moderate([...plain('alpha', 5), 'I know where you live and I am going to kill you, alpha.'], KEY_A)).status).toBe(200);
    expect((await moderate(plain('bravo', 4), KEY_B)).status).toBe(200);
    expect((await moderate(plain('charlie', 2))).status).toBe(200); // no key: the address's quota
    const listed = async (status: string, q: string, n: number) => {
      for (let i = 0; i < 60; i++) {
        const body = reviewListEnvelopeSchema.parse(await (await call(`/api/v1/reviews?status=${status}&q=${q}`)).json());
        if (body.success && body.data.total >= n) return body.data.total;
        await new Promise((r) => setTimeout(r, 250));
      }
      return -1;
    };
    expect(await listed('pending', 'alpha', 4)).toBe(4); // 3 plain (the key's quota) + the threat
    expect(await listed('pending', 'bravo', 3)).toBe(3); // key B has its own quota
    expect(await listed('pending', 'charlie', 1)).toBe(1);
    // What the quota kept out of the queue waits in the backlog: no flagged text is dropped.
    expect(await listed('backlog', 'alpha', 2)).toBe(2);
    expect(await listed('backlog', 'bravo', 1)).toBe(1);
    expect(await listed('backlog', 'charlie', 1)).toBe(1);
    const body = notQueuedEnvelopeSchema.parse(await (await call('/api/v1/reviews/not-queued?hours=1')).json());
    if (!body.success) throw new Error('expected success');
    expect(body.data.counts).toEqual(
      expect.arrayContaining([
        { reason: 'quota', client: `key:${keyId(KEY_A)}`, count: 2 },
        { reason: 'quota', client: `key:${keyId(KEY_B)}`, count: 1 },
        { reason: 'quota', client: 'anonymous', count: 1 },
      ]),
    );
    expect(body.data.total).toBe(4);
    const metrics = await (await call('/metrics')).text();
    expect(metrics).toMatch(/vigil_review_not_queued_total\{reason="quota"\} 4/);
  });

  it('records undo and reopen against who did them, with reasons checked against the list', async () => {
    const [item] = await items('alpha number 0');
    const id = item!.review_id;
    const bad = await call(`/api/v1/reviews/${id}/decision`, { method: 'POST', json: { decision: 'confirm', reason_code: 'not a code' } });
    expect(bad.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await bad.json()).error.message).toMatch(/reason_code/);
    expect(
      (
        await call(`/api/v1/reviews/${id}/decision`, {
          method: 'POST',
          json: { decision: 'confirm', reason_code: 'harassment', note: 'n1' },
        })
      ).status,
    ).toBe(200);
    // Only the key that decided may undo its decision; another key is refused and writes nothing.
    const refused = await call(`/api/v1/reviews/${id}/undo`, { method: 'POST', key: KEY_B });
    expect(refused.status).toBe(409);
    expect(errorEnvelopeSchema.parse(await refused.json()).error.code).toBe('UNDO_NOT_POSSIBLE');
    const undone = undoEnvelopeSchema.parse(await (await call(`/api/v1/reviews/${id}/undo`, { method: 'POST' })).json());
    if (!undone.success) throw new Error('expected success');
    // With keys, the moderator is the key that undid it, not a default name.
    expect(undone.data.entry).toMatchObject({ action: 'undone', decision: 'confirm', moderator: `key:${keyId(KEY_A)}`, text: item!.text });
    expect((await call(`/api/v1/reviews/${id}/reopen`, { method: 'POST' })).status).toBe(409);
    await call(`/api/v1/reviews/${id}/decision`, {
      method: 'POST',
      json: { decision: 'overturn', reason_code: 'false positive: context' },
    });
    const reopened = undoEnvelopeSchema.parse(
      await (await call(`/api/v1/reviews/${id}/reopen`, { method: 'POST', json: { note: 'context was a pretext' } })).json(),
    );
    expect(reopened.success && reopened.data.entry).toMatchObject({
      action: 'reopened',
      decision: 'overturn',
      note: 'context was a pretext',
    });
    expect(reopened.success && reopened.data.item.status).toBe('pending');
  });

  it('filters the audit log on the server, pages it to the first entry and exports what the filters select', async () => {
    expect((await audit(`moderator=${encodeURIComponent(`key:${keyId(KEY_A)}`)}`)).entries.map((e) => e.action)).toEqual([
      'reopened',
      'decided',
      'undone',
      'decided',
    ]);
    expect((await audit(`moderator=${encodeURIComponent(`key:${keyId(KEY_B)}`)}`)).total).toBe(0);
    expect((await audit('action=reopened')).total).toBe(1);
    expect((await audit('verdict=overturn')).entries.map((e) => e.action)).toEqual(['reopened', 'decided']);
    expect((await audit('q=pretext')).total).toBe(1);
    const all = await audit('limit=1000');
    expect(all.total).toBe(4); // decided, undone, decided, reopened (the refused reason wrote nothing)
    const paged: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const page = await audit(`limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.entries.map((e) => e.decision_id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(paged).toEqual(all.entries.map((e) => e.decision_id));
    const csv = parseCsv(await (await call('/api/v1/reviews/audit/export?verdict=overturn')).text(), { columns: true }) as Record<
      string,
      string
    >[];
    expect(csv.map((r) => r.action)).toEqual(['decided', 'reopened']); // oldest first
    expect(csv[0]).toMatchObject({ reason_code: 'false positive: context', text: expect.stringContaining('alpha number 0') });
    expect((await call('/api/v1/reviews/audit?action=deleted')).status).toBe(400);
  });

  it("gives one item's history by review_id, and refuses an id that is not a UUID", async () => {
    const [alpha] = await items('alpha number 0');
    const [bravo] = await items('bravo number 0');
    await call(`/api/v1/reviews/${bravo!.review_id}/decision`, { method: 'POST', json: { decision: 'confirm', reason_code: 'hate' } });
    const history = await audit(`review_id=${alpha!.review_id}`);
    expect(history.entries.map((e) => e.action)).toEqual(['reopened', 'decided', 'undone', 'decided']);
    expect(new Set(history.entries.map((e) => e.review_id))).toEqual(new Set([alpha!.review_id]));
    expect((await audit(`review_id=${bravo!.review_id}`)).entries.map((e) => [e.action, e.reason_code])).toEqual([['decided', 'hate']]);
    const bad = await call('/api/v1/reviews/audit?review_id=alpha');
    expect(bad.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await bad.json()).error.code).toBe('VALIDATION_ERROR');
  });
});
