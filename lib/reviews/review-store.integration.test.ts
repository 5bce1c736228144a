/**
 * The review queue against embedded PGlite (in memory): recording, listing and filters,
 * decisions with idempotent replays, the append-only audit log and the retention purge.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import type { AuditEntry } from '@/lib/contracts/reviews';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { auditToCsv } from './audit-csv';
import { parse as parseCsv } from 'csv-parse/sync';
import { createReviewStore, type ReviewStore } from './review-store';
import { decodeCursor } from './keyset-cursor';
import { isReviewError } from './review-errors';
import { migrationsDir, readMigrations } from '@/lib/db/migrate';
import { textHash } from './text-hash';

function verdict(
  text: string,
  summary: ModerationResponse['ensemble']['summary'],
  primary: ModerationResponse['ensemble']['primary_issue'],
  severity: ModerationResponse['ensemble']['severity'],
  score: number,
): ModerationResponse {
  return {
    text,
    label: {
      sexism: { score: 0.1, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: false },
      toxicity: { overall: score, insult: score, threat: 0, identity_attack: 0, profanity: 0, model_version: 'toxic_transformer_v1' },
      rules: {
        slur_detected: false,
        threat_detected: false,
        self_harm_flag: false,
        profanity_flag: false,
        caps_abuse: false,
        character_repetition: false,
        model_version: 'rules_v1',
      },
    },
    ensemble: { summary, primary_issue: primary, score, severity },
    meta: { processing_time_ms: 1, models_used: ['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1'] },
  };
}

const DAY = 86_400_000;

/** A migrated in-memory PGlite database and its review store. */
async function freshStore(): Promise<{ database: Database; store: ReviewStore }> {
  const database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
  await migrate(database);
  return { database, store: createReviewStore(database) };
}

describe('review store on PGlite', () => {
  let database: Database;
  let store: ReviewStore;

  beforeAll(async () => {
    ({ database, store } = await freshStore());
  }, 120_000);
  afterAll(async () => database?.close());

  it('records only verdicts that are not likely_safe, with text, verdict and model versions', async () => {
    const t0 = new Date('2026-01-01T10:00:00Z');
    const n = await store.record(
      [verdict('have a nice day', 'likely_safe', 'none', 'low', 0.1), verdict('you idiot', 'likely_harmful', 'insult', 'medium', 0.7)],
      t0,
    );
    expect(n).toEqual({ added: 1, backlog: 0, seen: 0, refused: 0, critical: 0, evicted: 0 });
    await store.record([verdict('i will hurt you', 'highly_harmful', 'threat', 'critical', 0.95)], new Date(t0.getTime() + 1000));
    await store.record([verdict('women cannot lead', 'possibly_harmful', 'sexism', 'medium', 0.55)], new Date(t0.getTime() + 2000));

    const { items, total } = await store.list({ status: 'pending', sort: 'newest', limit: 50, offset: 0 });
    expect(total).toBe(3);
    expect(items.map((i) => i.text)).toEqual(['women cannot lead', 'i will hurt you', 'you idiot']); // newest first
    const insult = items[2]!;
    expect(insult).toMatchObject({ summary: 'likely_harmful', primary_issue: 'insult', severity: 'medium', status: 'pending' });
    expect(insult.model_versions).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
    expect(insult.verdict).toHaveProperty('ensemble.score', 0.7);
    expect(insult.created_at).toBe(t0.toISOString());
  });

  it('filters by primary issue and severity, and pages', async () => {
    expect((await store.list({ status: 'pending', primary_issue: 'threat', limit: 50, offset: 0 })).items.map((i) => i.text)).toEqual([
      'i will hurt you',
    ]);
    expect((await store.list({ status: 'pending', severity: 'medium', limit: 50, offset: 0 })).total).toBe(2);
    const page = await store.list({ status: 'pending', sort: 'newest', limit: 1, offset: 1 });
    expect(page.items.map((i) => i.text)).toEqual(['i will hurt you']);
    expect(page.total).toBe(3);
  });

  it('records a decision once per client_decision_id and appends it to the audit log', async () => {
    const [item] = (await store.list({ status: 'pending', primary_issue: 'insult', limit: 1, offset: 0 })).items;
    const when = new Date('2026-01-02T09:00:00Z');
    const first = await store.decide(
      item!.review_id,
      { decision: 'overturn', moderator: 'ana', note: 'banter', client_decision_id: 'c-0000001' },
      when,
    );
    expect(first.duplicate).toBe(false);
    expect(first.item).toMatchObject({ status: 'overturned', decided_by: 'ana', decided_at: when.toISOString() });
    expect(first.entry).toMatchObject({ decision: 'overturn', moderator: 'ana', note: 'banter', primary_issue: 'insult' });

    const replay = await store.decide(item!.review_id, {
      decision: 'overturn',
      moderator: 'ana',
      note: 'banter',
      client_decision_id: 'c-0000001',
    });
    expect(replay.duplicate).toBe(true);
    expect(replay.entry.decision_id).toBe(first.entry.decision_id);

    const { entries, total } = await store.audit({ limit: 100, offset: 0 });
    expect(total).toBe(1);
    expect(entries[0]!.decision_id).toBe(first.entry.decision_id);
    expect((await store.list({ status: 'pending', limit: 50, offset: 0 })).total).toBe(2);
    expect((await store.list({ status: 'overturned', limit: 50, offset: 0 })).total).toBe(1);
  });

  it('answers NOT_FOUND for unknown or malformed ids', async () => {
    const notFound = (e: unknown) => isReviewError(e, 'NOT_FOUND');
    await expect(store.decide('00000000-0000-4000-8000-000000000000', { decision: 'confirm', moderator: 'm', note: '' })).rejects.toSatisfy(
      notFound,
    );
    await expect(store.decide('not-a-uuid', { decision: 'confirm', moderator: 'm', note: '' })).rejects.toSatisfy(notFound);
  });

  it('keeps the audit log append-only', async () => {
    // drizzle wraps the database error; the trigger's message is its cause.
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => 'no error',
        (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message),
      );
    expect(await failure(database.db.execute(sql`UPDATE review_decisions SET note = 'changed'`))).toMatch(/append-only/);
    expect(await failure(database.db.execute(sql`DELETE FROM review_decisions`))).toMatch(/append-only/);
    expect((await store.audit({ limit: 10, offset: 0 })).total).toBe(1);
  });

  it('exports the audit log as CSV, oldest first', async () => {
    const [threat] = (await store.list({ status: 'pending', primary_issue: 'threat', limit: 1, offset: 0 })).items;
    await store.decide(
      threat!.review_id,
      { decision: 'confirm', moderator: 'bo, "the mod"', note: '=cmd', client_decision_id: 'c-0000002' },
      new Date('2026-01-03T00:00:00Z'),
    );
    const all: AuditEntry[] = [];
    for await (const chunk of store.auditChunks({})) all.push(...chunk);
    const rows = parseCsv(auditToCsv(all));
    expect(rows[0]).toEqual([
      'decided_at',
      'action',
      'decision',
      'moderator',
      'reason_code',
      'note',
      'text',
      'review_id',
      'decision_id',
      'summary',
      'primary_issue',
      'severity',
      'score',
      'client_decision_id',
    ]);
    expect(rows.slice(1).map((r) => [r[1], r[2], r[3], r[5], r[6]])).toEqual([
      ['decided', 'overturn', 'ana', 'banter', 'you idiot'],
      ['decided', 'confirm', 'bo, "the mod"', "'=cmd", 'i will hurt you'],
    ]);
  });

  it('purges texts older than the retention and expires what was still pending', async () => {
    await store.record([verdict('fresh insult', 'likely_harmful', 'insult', 'high', 0.75)], new Date('2026-03-01T00:00:00Z'));
    const purged = await store.purgeExpiredTexts(30, new Date('2026-02-15T00:00:00Z'));
    expect(purged).toBe(3); // the three January items; March is not yet recorded as old
    const expired = await store.list({ status: 'expired', limit: 50, offset: 0 });
    expect(expired.items.map((i) => i.text)).toEqual([null]);
    expect(expired.items[0]!.primary_issue).toBe('sexism');
    const decided = await store.list({ status: 'overturned', limit: 50, offset: 0 });
    expect(decided.items[0]!.text).toBeNull();
    expect((await store.list({ status: 'pending', limit: 50, offset: 0 })).items.map((i) => i.text)).toEqual(['fresh insult']);
    expect((await store.audit({ limit: 10, offset: 0 })).total).toBe(2); // decisions outlive the texts
    expect(await store.purgeExpiredTexts(30, new Date(Date.parse('2026-03-01T00:00:00Z') + 29 * DAY))).toBe(0);
    expect(await store.purgeExpiredTexts(30, new Date(Date.parse('2026-03-01T00:00:00Z') + 31 * DAY))).toBe(1);
  });
});

describe('review store and hostile texts', () => {
  it('records a text holding NUL characters (PostgreSQL text cannot) with U+FFFD in their place', async () => {
    const database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    try {
      await migrate(database);
      const store = createReviewStore(database);
      expect((await store.record([verdict('kill\u0000you', 'highly_harmful', 'threat', 'critical', 0.95)])).added).toBe(1);
      expect((await store.list({ status: 'pending', limit: 10, offset: 0 })).items.map((i) => i.text)).toEqual(['kill\ufffdyou']);
    } finally {
      await database.close();
    }
  });
});

describe('review queue for triage (one item per text, quota, cap, paging, undo)', () => {
  let database: Database;
  let store: ReviewStore;
  const list = (q: Partial<Parameters<ReviewStore['list']>[0]> = {}) => store.list({ status: 'pending', limit: 50, offset: 0, ...q });

  beforeAll(async () => {
    ({ database, store } = await freshStore());
  }, 120_000);
  afterAll(async () => database?.close());

  it('stores one item per normalised text, with the count and the first and last time seen', async () => {
    const t0 = new Date('2026-05-01T08:00:00Z');
    const insult = (text: string) => verdict(text, 'likely_harmful', 'insult', 'medium', 0.7);
    // 11 copies in one batch, with other spacing and a compatibility character (NFKC: ｉ -> i).
    const copies = [...Array.from({ length: 9 }, () => insult('you idiot')), insult('  you   idiot '), insult('you \uFF49diot')];
    expect(await store.record(copies, t0, { source: 'batch' })).toEqual({
      added: 1,
      backlog: 0,
      seen: 0,
      refused: 0,
      critical: 0,
      evicted: 0,
    });
    const later = new Date(t0.getTime() + 60_000);
    expect(await store.record([insult('you idiot')], later, { source: 'text' })).toEqual({
      added: 0,
      backlog: 0,
      seen: 1,
      refused: 0,
      critical: 0,
      evicted: 0,
    });
    const { items, total } = await list();
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      text: 'you idiot',
      seen_count: 12,
      first_seen_at: t0.toISOString(),
      created_at: t0.toISOString(),
      last_seen_at: later.toISOString(),
      sources: ['batch', 'text'],
    });
    // Case is kept: caps can change the verdict.
    await store.record([insult('YOU IDIOT')], later);
    expect((await list()).total).toBe(2);
  });

  it('admits new texts to the queue through the quota, keeps the rest in the backlog, and sightings stay free', async () => {
    let budget = 2;
    const admit = async (n: number) => {
      const granted = Math.min(n, budget);
      budget -= granted;
      return granted;
    };
    const t = new Date('2026-05-01T09:00:00Z');
    const texts = ['spam one', 'spam two', 'spam three', 'you idiot'].map((x) =>
      verdict(x, 'possibly_harmful', 'toxicity', 'medium', 0.55),
    );
    expect(await store.record(texts, t, { admit })).toEqual({ added: 2, backlog: 1, seen: 1, refused: 1, critical: 0, evicted: 0 });
    expect((await list({ q: 'spam' })).total).toBe(2);
    expect((await list({ status: 'backlog', q: 'spam' })).total).toBe(1);
    // Seen again: every text is now known (one in the backlog), so nothing asks the quota.
    expect(await store.record(texts, t, { admit })).toEqual({ added: 0, backlog: 0, seen: 4, refused: 0, critical: 0, evicted: 0 });
  });

  it('evicts the oldest pending items beyond the storage cap, never decided ones', { timeout: 120_000 }, async () => {
    const { database: db, store: s } = await freshStore();
    try {
      const v = (x: string) => verdict(x, 'likely_harmful', 'insult', 'medium', 0.7);
      await s.record([v('oldest')], new Date('2026-01-01T00:00:00Z'));
      const [oldest] = (await s.list({ status: 'pending', limit: 1, offset: 0 })).items;
      await s.decide(oldest!.review_id, { decision: 'confirm', moderator: 'm', note: '' });
      await s.record([v('second')], new Date('2026-01-02T00:00:00Z'));
      await s.record([v('third')], new Date('2026-01-03T00:00:00Z'));
      const outcome = await s.record([v('fourth'), v('fifth')], new Date('2026-01-04T00:00:00Z'), { maxItems: 3 });
      expect(outcome).toEqual({ added: 2, backlog: 0, seen: 0, refused: 0, critical: 0, evicted: 2 });
      expect((await s.list({ status: 'all', limit: 10, offset: 0 })).items.map((i) => i.text).sort()).toEqual([
        'fifth',
        'fourth',
        'oldest',
      ]);
    } finally {
      await db.close();
    }
  });

  it('pages with a cursor through items sharing one timestamp, without gaps or repeats', async () => {
    const t = new Date('2026-05-02T00:00:00Z');
    await store.record(
      Array.from({ length: 7 }, (_, i) => verdict(`paged text ${i}`, 'possibly_harmful', 'sexism', 'low', 0.52)),
      t,
      { source: 'batch' },
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await list({ q: 'paged text', limit: 3, cursor });
      expect(r.total).toBe(7);
      seen.push(...r.items.map((i) => i.text!));
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(decodeCursor('bm90IGEgY3Vyc29y')).toBeUndefined();
    await expect(list({ cursor: 'bm90IGEgY3Vyc29y' })).rejects.toThrow(/cursor/);
  });

  it('searches the text literally and filters by source, date and hash', async () => {
    await store.record([verdict('100%_sure you are a fool', 'likely_harmful', 'insult', 'medium', 0.7)], new Date('2026-05-03T00:00:00Z'), {
      source: 'text',
    });
    expect((await list({ q: '100%_' })).items.map((i) => i.text)).toEqual(['100%_sure you are a fool']);
    expect((await list({ q: '%' })).total).toBe(1); // % is a literal here, not a wildcard
    expect((await list({ q: 'PAGED TEXT 3' })).items.map((i) => i.text)).toEqual(['paged text 3']); // case-insensitive
    expect((await list({ source: 'text' })).items.every((i) => i.sources.includes('text'))).toBe(true);
    expect((await list({ source: 'batch', q: 'fool' })).total).toBe(0);
    expect((await list({ from: '2026-05-02T12:00:00Z' })).items.map((i) => i.text)).toEqual(['100%_sure you are a fool']);
    expect((await list({ to: '2026-05-01T08:00:30Z' })).total).toBe(0); // 'you idiot' was seen again later
    expect((await list({ text_hash: textHash('paged  text 5') })).items.map((i) => i.text)).toEqual(['paged text 5']);
  });

  it('undoes a decision within the window (appended to the audit log), not after it', async () => {
    const [item] = (await list({ q: 'paged text 0' })).items;
    const decidedAt = new Date('2026-05-04T10:00:00Z');
    await store.decide(item!.review_id, { decision: 'confirm', moderator: 'ana', note: '' }, decidedAt);
    const undoRefused = (e: unknown) => isReviewError(e, 'UNDO_NOT_POSSIBLE');
    await expect(store.undo(item!.review_id, { moderator: 'bo' }, 120, new Date(decidedAt.getTime() + 121_000))).rejects.toSatisfy(
      undoRefused,
    );
    const undone = await store.undo(item!.review_id, { moderator: 'bo' }, 120, new Date(decidedAt.getTime() + 30_000));
    expect(undone.item).toMatchObject({ status: 'pending', decided_at: null, decided_by: null });
    // The row says what happened (undone), to which verdict, and who did it (not the default name).
    expect(undone.entry).toMatchObject({ action: 'undone', decision: 'confirm', moderator: 'bo', note: 'undid confirm by ana' });
    expect(undone.entry.text).toBe('paged text 0');
    await expect(store.undo(item!.review_id, { moderator: 'ana' }, 120)).rejects.toSatisfy(undoRefused);
    await expect(store.undo('00000000-0000-4000-8000-000000000000', { moderator: 'ana' }, 120)).rejects.toSatisfy((e) =>
      isReviewError(e, 'NOT_FOUND'),
    );
    expect((await store.audit({ limit: 10, offset: 0 })).entries.map((e) => [e.action, e.decision])).toEqual([
      ['undone', 'confirm'],
      ['decided', 'confirm'],
    ]);
  });

  it("lists one item's history: its own entries only, newest first", async () => {
    const at = new Date('2026-06-01T10:00:00Z');
    await store.record([verdict('history one', 'likely_harmful', 'insult', 'medium', 0.7)], at);
    await store.record([verdict('history two', 'likely_harmful', 'insult', 'medium', 0.7)], at);
    const [one] = (await store.list({ status: 'pending', q: 'history one', limit: 1, offset: 0 })).items;
    const [two] = (await store.list({ status: 'pending', q: 'history two', limit: 1, offset: 0 })).items;
    await store.decide(one!.review_id, { decision: 'confirm', moderator: 'ana', note: '', reason_code: 'harassment' }, at);
    await store.decide(two!.review_id, { decision: 'overturn', moderator: 'bo', note: '' }, at);
    await store.reopen(one!.review_id, { moderator: 'cy', note: 'second look' }, new Date(at.getTime() + 1000));
    const history = await store.audit({ review_id: one!.review_id, limit: 100, offset: 0 });
    expect(history.total).toBe(2);
    expect(history.entries.map((e) => [e.action, e.moderator, e.reason_code, e.text])).toEqual([
      ['reopened', 'cy', '', 'history one'],
      ['decided', 'ana', 'harassment', 'history one'],
    ]);
  });

  it('brings a text purged by retention back to pending when it is seen again', async () => {
    // Dates a year before the other items here, so the purge touches only this one.
    const v = verdict('old insult', 'likely_harmful', 'insult', 'medium', 0.7);
    await store.record([v], new Date('2025-01-01T00:00:00Z'));
    expect(await store.purgeExpiredTexts(30, new Date('2025-03-01T00:00:00Z'))).toBe(1);
    expect((await list({ status: 'expired' })).items.map((i) => i.text)).toEqual([null]);
    await store.record([v], new Date('2025-03-02T00:00:00Z'));
    expect((await list({ q: 'old insult' })).items.map((i) => [i.text, i.seen_count])).toEqual([['old insult', 2]]);
  });
});

/**
 * PGlite always; with TEST_DATABASE_URL (scripts/test-postgres.sh) also PostgreSQL 15, in a schema
 * of its own so the migrations run from scratch there too.
 */
const migrationTargets: [string, () => Promise<Database>][] = [
  ['PGlite', () => openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' })],
];
if (process.env.TEST_DATABASE_URL) {
  const url = process.env.TEST_DATABASE_URL;
  migrationTargets.push([
    'PostgreSQL',
    async () => {
      const schema = `vigil_mig_${Date.now()}`;
      const admin = await openDatabase({ ...loadEnv({}), DATABASE_URL: url, DATABASE_DRIVER: 'pg' });
      await admin.db.execute(sql.raw(`CREATE SCHEMA ${schema}`));
      await admin.close();
      const scoped = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
      return openDatabase({ ...loadEnv({}), DATABASE_URL: scoped, DATABASE_DRIVER: 'pg' });
    },
  ]);
}

describe.each(migrationTargets)('migration 0005 on a queue recorded before it (%s)', (_name, open) => {
  it('folds existing copies into one item per text, keeping decided copies and their audit entries', { timeout: 120_000 }, async () => {
    const db = await open();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mig-'));
    try {
      // Apply the migrations before this one only, as a database from before this change.
      for (const m of readMigrations()) if (m.name < '0005_review_queue_triage.sql') fs.writeFileSync(path.join(dir, m.name), m.sql);
      await migrate(db, dir);
      const insert = (text: string, status: string, at: string) =>
        db.db.execute(sql`INSERT INTO review_items (text, summary, primary_issue, severity, score, verdict, status, created_at, decided_at)
          VALUES (${text}, 'likely_harmful', 'insult', 'medium', 0.7, '{}'::jsonb, ${status}, ${at}::timestamptz, ${status === 'pending' ? null : at}::timestamptz)`);
      await insert('you idiot', 'pending', '2026-01-01T00:00:00Z');
      await insert('you  idiot', 'pending', '2026-01-03T00:00:00Z');
      await insert('you idiot', 'confirmed', '2026-01-02T00:00:00Z');
      await insert('you idiot', 'overturned', '2026-01-04T00:00:00Z');
      await insert('other', 'pending', '2026-01-05T00:00:00Z');
      fs.copyFileSync(path.join(migrationsDir(), '0005_review_queue_triage.sql'), path.join(dir, '0005_review_queue_triage.sql'));
      expect((await migrate(db, dir)).applied).toEqual(['0005_review_queue_triage.sql']);
      // The store reads today's schema: the later migrations run too (0013 gives these rows their priority).
      for (const m of readMigrations()) fs.writeFileSync(path.join(dir, m.name), m.sql);
      await migrate(db, dir);
      const s = createReviewStore(db);
      const all = (await s.list({ status: 'all', limit: 10, offset: 0 })).items;
      expect(all.map((i) => [i.text, i.status, i.seen_count]).sort()).toEqual([
        ['other', 'pending', 1],
        ['you idiot', 'confirmed', 4],
        ['you idiot', 'overturned', 1],
      ]);
      const kept = all.find((i) => i.status === 'confirmed')!;
      expect(kept.first_seen_at).toBe('2026-01-01T00:00:00.000Z');
      expect(kept.last_seen_at).toBe('2026-01-04T00:00:00.000Z');
      // The SQL hash is the application's: a new sighting lands on the kept item.
      expect(await s.record([verdict('you idiot', 'likely_harmful', 'insult', 'medium', 0.7)])).toMatchObject({ added: 0, seen: 1 });
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
