/**
 * A review item's history in words (docs/decisions/171-triage-view.md): when it was queued and
 * last seen, then every audit entry about it (decided, bulk, undone, reopened), oldest first,
 * with who did it, the reason code and the note.
 */
import type { AuditEntry, ReviewItem } from '@/lib/contracts/reviews';

export interface HistoryLine {
  key: string;
  at: string;
  action: 'queued' | 'seen_again' | AuditEntry['action'];
  what: string;
  by?: string;
  reason?: string;
  note?: string;
}

const VERDICT: Record<string, string> = { confirm: 'confirmed harmful', overturn: 'overturned (false positive)', undo: 'a decision' };

function entryWords(e: AuditEntry): string {
  const verdict = VERDICT[e.decision] ?? e.decision;
  if (e.action === 'decided') return verdict[0]!.toUpperCase() + verdict.slice(1);
  if (e.action === 'bulk_decided') return `${verdict[0]!.toUpperCase()}${verdict.slice(1)} (bulk action)`;
  if (e.action === 'undone') return `Undid “${verdict}”`;
  return `Reopened (was ${verdict})`;
}

export function itemHistory(
  item: Pick<ReviewItem, 'first_seen_at' | 'last_seen_at' | 'seen_count'>,
  entries: readonly AuditEntry[],
): HistoryLine[] {
  const lines: HistoryLine[] = [{ key: 'queued', at: item.first_seen_at, action: 'queued', what: 'Queued for review' }];
  if (item.seen_count > 1)
    lines.push({
      key: 'seen',
      at: item.last_seen_at,
      action: 'seen_again',
      what: `Seen again (${item.seen_count} times in all; last time)`,
    });
  for (const e of entries) {
    lines.push({
      key: e.decision_id,
      at: e.decided_at,
      action: e.action,
      what: entryWords(e),
      by: e.moderator,
      ...(e.reason_code ? { reason: e.reason_code.replace(/_/g, ' ') } : {}),
      ...(e.note ? { note: e.note } : {}),
    });
  }
  // Oldest first; the queueing line stays first when a decision shares its timestamp.
  return lines
    .map((l, i) => ({ l, i }))
    .sort((a, b) => a.l.at.localeCompare(b.l.at) || a.i - b.i)
    .map(({ l }) => l);
}
