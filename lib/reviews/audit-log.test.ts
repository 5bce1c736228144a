/**
 * The audit log as evidence (docs/decisions/160): each row's action (decided, bulk_decided,
 * undone, reopened), moderator, reason code and the item's text; server-side filters and keyset
 * pages down to the first entry; critical verdicts queued whatever the quota, and every text not
 * queued counted; migration 0007 on a log written before it (PGlite, and PostgreSQL 15 with
 * TEST_DATABASE_URL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { AuditEntry, ListAuditQuery } from '@/lib/contracts/reviews';
import { migrate, migrationsDir, readMigrations } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { loadEnv } from '@/lib/env';
import { isReviewError } from './review-errors';
import { createReviewStore, type ReviewStore } from './review-store';

function verdict(
  text: string,
  summary: ModerationResponse['ensemble']['summary'] = 'likely_harmful',
  primary: ModerationResponse['ensemble']['primary_issue'] = 'insult',
  severity: ModerationResponse['ensemble']['severity'] = 'medium',
): ModerationResponse {
  return {
    text,
    ensemble: { summary, primary_issue: primary, score: 0.7, severity },
    label: {},
    meta: { models_used: [] },
  } as unknown as ModerationResponse;
}

const memory = () => openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 10, minute));

describe('audit log', () => {
  let database: Database;
  let store: ReviewStore;
  const ids: Record<string, string> = {};
  const audit = (q: Partial<ListAuditQuery> = {}) => store.audit({ limit: 100, offset: 0, ...q });

  beforeAll(async () => {
    database = await memory();
    await migrate(database);
    store = createReviewStore(database);
    await store.record(
      ['alpha insult', 'beta insult', 'gamma insult', 'delta insult'].map((t) => verdict(t)),
      at(0),
    );
    for (const i of (await store.list({ status: 'pending', limit: 10, offset: 0 })).items) ids[i.text!] = i.review_id;
    // ana confirms alpha, bo undoes it (within the window) and overturns it, cy reopens that a day later;
    // bo bulk-confirms beta and gamma with a reason; delta stays pending.
    await store.decide(
      ids['alpha insult']!,
      { decision: 'confirm', moderator: 'ana', reason_code: 'harassment', note: 'first look' },
      at(1),
    );
    await store.undo(ids['alpha insult']!, { moderator: 'bo' }, 120, at(2));
    await store.decide(
      ids['alpha insult']!,
      { decision: 'overturn', moderator: 'bo', reason_code: 'false positive: quote/counter-speech' },
      at(3),
    );
    await store.reopen(ids['alpha insult']!, { moderator: 'cy', reason_code: 'harassment', note: 'quote was a pretext' }, at(60 * 24));
    await store.decide(ids['beta insult']!, { decision: 'confirm', moderator: 'bo', reason_code: 'spam', bulk: true }, at(5));
    await store.decide(ids['gamma insult']!, { decision: 'confirm', moderator: 'bo', reason_code: 'spam', bulk: true }, at(5));
  }, 120_000);
  afterAll(async () => database?.close());

  it('says what each row did, by whom, on which text, and why', async () => {
    const rows = (await audit()).entries.map((e) => [e.action, e.decision, e.moderator, e.reason_code, e.text]);
    expect(rows).toEqual([
      ['reopened', 'overturn', 'cy', 'harassment', 'alpha insult'],
      ['bulk_decided', 'confirm', 'bo', 'spam', expect.any(String)],
      ['bulk_decided', 'confirm', 'bo', 'spam', expect.any(String)],
      ['decided', 'overturn', 'bo', 'false positive: quote/counter-speech', 'alpha insult'],
      ['undone', 'confirm', 'bo', '', 'alpha insult'],
      ['decided', 'confirm', 'ana', 'harassment', 'alpha insult'],
    ]);
    expect((await store.get(ids['alpha insult']!))!.status).toBe('pending');
  });

  it('filters on the server by moderator, action, verdict, time and text', async () => {
    const actions = (r: { entries: AuditEntry[] }) => r.entries.map((e) => e.action);
    expect(actions(await audit({ moderator: 'ana' }))).toEqual(['decided']);
    expect((await audit({ moderator: 'bo' })).total).toBe(4);
    expect(actions(await audit({ action: 'undone' }))).toEqual(['undone']);
    expect((await audit({ action: 'bulk_decided' })).total).toBe(2);
    expect((await audit({ verdict: 'overturn' })).entries.map((e) => e.moderator)).toEqual(['cy', 'bo']);
    expect((await audit({ from: at(3).toISOString(), to: at(6).toISOString() })).total).toBe(3);
    expect((await audit({ q: 'GAMMA' })).entries.map((e) => e.text)).toEqual(['gamma insult']);
    expect((await audit({ q: 'pretext' })).entries.map((e) => e.action)).toEqual(['reopened']); // the note
    expect((await audit({ q: 'counter-speech' })).total).toBe(1); // the reason code
    expect((await audit({ moderator: 'bo', verdict: 'confirm', action: 'bulk_decided' })).total).toBe(2);
  });

  it('pages newest first by cursor down to the first entry, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await audit({ limit: 4, cursor });
      expect(r.total).toBe(6);
      seen.push(...r.entries.map((e) => e.decision_id));
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    const all = (await audit()).entries.map((e) => e.decision_id);
    expect(seen).toEqual(all);
    await expect(audit({ cursor: 'bm90IGEgY3Vyc29y' })).rejects.toSatisfy((e) => isReviewError(e, 'VALIDATION_ERROR'));
  });

  it('reads the filtered log oldest first in chunks for the export', async () => {
    const chunks: AuditEntry[][] = [];
    for await (const c of store.auditChunks({ moderator: 'bo' }, 3)) chunks.push(c);
    expect(chunks.map((c) => c.length)).toEqual([3, 1]);
    expect(chunks.flat().map((e) => e.action)).toEqual(['undone', 'decided', 'bulk_decided', 'bulk_decided']);
  });

  it('refuses to reopen an item without a decision, and undo after the window', async () => {
    await expect(store.reopen(ids['delta insult']!, { moderator: 'ana' })).rejects.toSatisfy((e) =>
      isReviewError(e, 'REOPEN_NOT_POSSIBLE'),
    );
    await expect(store.undo(ids['beta insult']!, { moderator: 'ana' }, 120, at(8))).rejects.toSatisfy((e) =>
      isReviewError(e, 'UNDO_NOT_POSSIBLE'),
    );
  });
});

describe('quota, critical verdicts and the not-queued count', () => {
  let database: Database;
  let store: ReviewStore;
  beforeAll(async () => {
    database = await memory();
    await migrate(database);
    store = createReviewStore(database);
  }, 120_000);
  afterAll(async () => database?.close());

  it('queues critical verdicts whatever the quota, keeps the others in the backlog and counts them, per client', async () => {
    const spent = async () => 0;
    const outcome = await store.record(
      [
        verdict('plain insult one'),
        verdict('plain insult two'),
        verdict('i will find you', 'likely_harmful', 'threat', 'high'),
        verdict('worst of all', 'highly_harmful', 'self_harm', 'high'),
        verdict('rated critical, not a threat', 'highly_harmful', 'insult', 'critical'),
      ],
      at(0),
      { admit: spent, client: 'key:abc123' },
    );
    // A plain insult rated highly_harmful/critical is not critical here: only threats and self-harm skip the quota.
    expect(outcome).toMatchObject({ added: 2, backlog: 3, refused: 3, critical: 2 });
    await store.record([verdict('plain insult three')], at(1), { admit: spent, client: 'anonymous' });
    const counts = await store.notQueued(24, at(30));
    expect(counts.total).toBe(4);
    expect(counts.counts).toEqual([
      { reason: 'quota', client: 'key:abc123', count: 3 },
      { reason: 'quota', client: 'anonymous', count: 1 },
    ]);
    // Older than the window asked for: not counted.
    expect((await store.notQueued(1, new Date(at(0).getTime() + 3 * 3_600_000))).total).toBe(0);
  });

  it('evicts the backlog first, then non-critical pending items, and counts evictions', async () => {
    const outcome = await store.record([verdict('filler a'), verdict('filler b'), verdict('filler c')], at(2), { maxItems: 3 });
    // Nine items for a cap of three: the four in the backlog go first, then two fillers.
    expect(outcome.evicted).toBe(6);
    expect((await store.list({ status: 'backlog', limit: 10, offset: 0 })).total).toBe(0);
    const left = (await store.list({ status: 'pending', limit: 10, offset: 0 })).items.map((i) => i.text!);
    // The critical items are older, yet the fillers went first; of the fillers (one instant) one is left.
    expect(left.filter((t) => !t.startsWith('filler')).sort()).toEqual(['i will find you', 'worst of all']);
    expect(left.filter((t) => t.startsWith('filler'))).toHaveLength(1);
    expect((await store.notQueued(24, at(30))).counts).toContainEqual({ reason: 'evicted', client: 'all', count: 6 });
  });
});

const targets: [string, () => Promise<Database>][] = [['PGlite', memory]];
if (process.env.TEST_DATABASE_URL) {
  const url = process.env.TEST_DATABASE_URL;
  targets.push([
    'PostgreSQL',
    async () => {
      const schema = `vigil_mig7_${Date.now()}`;
      const admin = await openDatabase({ ...loadEnv({}), DATABASE_URL: url, DATABASE_DRIVER: 'pg' });
      await admin.db.execute(sql.raw(`CREATE SCHEMA ${schema}`));
      await admin.close();
      const scoped = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
      return openDatabase({ ...loadEnv({}), DATABASE_URL: scoped, DATABASE_DRIVER: 'pg' });
    },
  ]);
}

describe.each(targets)('migration 0007 on an audit log written before it (%s)', (_name, open) => {
  it('gives old rows their action, changes no recorded value, and keeps the log append-only', { timeout: 120_000 }, async () => {
    const db = await open();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mig7-'));
    try {
      for (const m of readMigrations()) if (m.name < '0007_audit_actions.sql') fs.writeFileSync(path.join(dir, m.name), m.sql);
      await migrate(db, dir);
      const insert = (decision: string, note: string) =>
        db.db.execute(sql`INSERT INTO review_decisions (review_id, decision, moderator, note, summary, primary_issue, severity, score)
          VALUES ('00000000-0000-4000-8000-000000000001', ${decision}, 'ana', ${note}, 'likely_harmful', 'insult', 'medium', 0.7)`);
      await insert('confirm', 'looked harmful');
      await insert('undo', 'undid confirm by ana');
      fs.copyFileSync(path.join(migrationsDir(), '0007_audit_actions.sql'), path.join(dir, '0007_audit_actions.sql'));
      expect((await migrate(db, dir)).applied).toEqual(['0007_audit_actions.sql']);
      const rows = (await createReviewStore(db).audit({ limit: 10, offset: 0 })).entries;
      expect(rows.map((e) => [e.action, e.decision, e.moderator, e.note, e.reason_code]).sort()).toEqual([
        ['decided', 'confirm', 'ana', 'looked harmful', ''],
        ['undone', 'undo', 'ana', 'undid confirm by ana', ''],
      ]);
      const failure = await db.db.execute(sql`UPDATE review_decisions SET note = 'changed'`).then(
        () => 'no error',
        (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message),
      );
      expect(failure).toMatch(/append-only/);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
