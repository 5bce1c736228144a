import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@/lib/contracts/reviews';
import { itemHistory } from './item-history';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  decision_id: crypto.randomUUID(),
  review_id: '00000000-0000-4000-8000-000000000001',
  action: 'decided',
  decision: 'confirm',
  moderator: 'ana',
  reason_code: '',
  note: '',
  text: 'x',
  client_decision_id: null,
  summary: 'likely_harmful',
  primary_issue: 'insult',
  severity: 'medium',
  score: 0.7,
  decided_at: '2026-06-01T10:00:00.000Z',
  ...over,
});

describe("an item's history", () => {
  it('says what happened, by whom and why, oldest first, from the audit entries (newest first)', () => {
    const lines = itemHistory({ first_seen_at: '2026-06-01T09:00:00.000Z', last_seen_at: '2026-06-01T09:30:00.000Z', seen_count: 3 }, [
      entry({ action: 'reopened', decision: 'confirm', moderator: 'cy', note: 'second look', decided_at: '2026-06-01T12:00:00.000Z' }),
      entry({ action: 'undone', decision: 'overturn', moderator: 'bo', decided_at: '2026-06-01T11:00:00.000Z' }),
      entry({
        action: 'bulk_decided',
        decision: 'overturn',
        moderator: 'bo',
        reason_code: 'false_positive_quote',
        decided_at: '2026-06-01T10:59:00.000Z',
      }),
      entry({ action: 'decided', decision: 'confirm', reason_code: 'harassment', decided_at: '2026-06-01T10:00:00.000Z' }),
    ]);
    expect(lines.map((l) => [l.action, l.what, l.by ?? '', l.reason ?? '', l.note ?? ''])).toEqual([
      ['queued', 'Queued for review', '', '', ''],
      ['seen_again', 'Seen again (3 times in all; last time)', '', '', ''],
      ['decided', 'Confirmed harmful', 'ana', 'harassment', ''],
      ['bulk_decided', 'Overturned (false positive) (bulk action)', 'bo', 'false positive quote', ''],
      ['undone', 'Undid “overturned (false positive)”', 'bo', '', ''],
      ['reopened', 'Reopened (was confirmed harmful)', 'cy', '', 'second look'],
    ]);
  });

  it('is only the queueing line for an item nobody decided', () => {
    expect(
      itemHistory({ first_seen_at: '2026-06-01T09:00:00.000Z', last_seen_at: '2026-06-01T09:00:00.000Z', seen_count: 1 }, []),
    ).toHaveLength(1);
  });
});
