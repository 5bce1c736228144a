/** The console's audit log controller with a fake server: filters become the query, pages append to the first entry, stale answers are dropped. */
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditList } from '@/lib/contracts/reviews';
import { auditExportUrl, AuditLogController, auditQuery, NO_AUDIT_FILTERS, type AuditState } from './audit-log-controller';

const entry = (n: number): AuditEntry => ({
  decision_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  review_id: '00000000-0000-4000-8000-000000000000',
  action: 'decided',
  decision: 'confirm',
  moderator: 'ana',
  reason_code: 'threat',
  note: '',
  text: `text ${n}`,
  client_decision_id: null,
  summary: 'likely_harmful',
  primary_issue: 'threat',
  severity: 'high',
  score: 0.9,
  decided_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
});

/** 5 entries, newest first, paged by a cursor that is the index of the next entry. */
function fakeServer() {
  const all = [5, 4, 3, 2, 1].map(entry);
  const asked: URLSearchParams[] = [];
  const fetchPage = async (q: URLSearchParams): Promise<AuditList> => {
    asked.push(q);
    const start = Number(q.get('cursor') ?? 0);
    const limit = Number(q.get('limit'));
    const entries = all.slice(start, start + limit);
    const next = start + limit < all.length ? String(start + limit) : null;
    return { entries, total: all.length, limit, offset: 0, next_cursor: next };
  };
  return { fetchPage, asked };
}

describe('audit log controller', () => {
  it('turns the form into the server query: trimmed text, whole local days', () => {
    const q = auditQuery({
      ...NO_AUDIT_FILTERS,
      moderator: ' ana ',
      action: 'undone',
      verdict: 'confirm',
      from: '2026-06-01',
      to: '2026-06-01',
      q: ' hurt ',
    });
    expect(q.get('moderator')).toBe('ana');
    expect(q.get('action')).toBe('undone');
    expect(q.get('verdict')).toBe('confirm');
    expect(q.get('q')).toBe('hurt');
    expect(Date.parse(q.get('to')!) - Date.parse(q.get('from')!)).toBe(86_400_000);
    expect(auditExportUrl(NO_AUDIT_FILTERS)).toBe('/api/v1/reviews/audit/export');
    expect(auditExportUrl({ ...NO_AUDIT_FILTERS, moderator: 'bo' })).toBe('/api/v1/reviews/audit/export?moderator=bo');
  });

  it('appends pages down to the first entry, then has no cursor', async () => {
    const server = fakeServer();
    const c = new AuditLogController(server.fetchPage, () => undefined, 2);
    await c.reload();
    expect(c.state.entries.map((e) => e.text)).toEqual(['text 5', 'text 4']);
    await c.loadMore();
    await c.loadMore();
    expect(c.state.entries.map((e) => e.text)).toEqual(['text 5', 'text 4', 'text 3', 'text 2', 'text 1']);
    expect(c.state.cursor).toBeNull();
    await c.loadMore(); // nothing more to ask for
    expect(server.asked).toHaveLength(3);
  });

  it('drops the answer to a superseded filter', async () => {
    let release: (() => void) | undefined;
    const states: AuditState[] = [];
    const fetchPage = async (q: URLSearchParams): Promise<AuditList> => {
      if (q.get('moderator') === 'slow') await new Promise<void>((r) => (release = r));
      return { entries: [entry(q.get('moderator') === 'slow' ? 1 : 2)], total: 1, limit: 100, offset: 0, next_cursor: null };
    };
    const c = new AuditLogController(fetchPage, (s) => states.push(s));
    const slow = c.setFilters({ ...NO_AUDIT_FILTERS, moderator: 'slow' });
    await c.setFilters({ ...NO_AUDIT_FILTERS, moderator: 'fast' });
    release?.();
    await slow;
    expect(c.state.entries.map((e) => e.text)).toEqual(['text 2']);
    expect(states.at(-1)!.loading).toBe(false);
  });
});
