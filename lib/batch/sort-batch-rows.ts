/** The batch table's rows: finished ones, filtered by summary and a text search, sorted by a column (ties by source line). */
import { SUMMARIES } from '@/lib/contracts/moderation';
import type { BatchRow } from './run-batch';

export type SortKey = 'line' | 'text' | 'summary' | 'primary_issue' | 'score';

export function shownBatchRows(
  rows: readonly BatchRow[],
  filterSummary: string,
  search: string,
  sort: { key: SortKey; dir: 1 | -1 },
): BatchRow[] {
  const q = search.trim().toLowerCase();
  const filtered = rows
    .filter((r) => r.result || r.error)
    .filter((r) => (!filterSummary || r.result?.ensemble.summary === filterSummary) && (!q || r.text.toLowerCase().includes(q)));
  const rank = (r: BatchRow): number | string => {
    const e = r.result?.ensemble;
    if (sort.key === 'summary') return e ? SUMMARIES.indexOf(e.summary) : -1;
    if (sort.key === 'primary_issue') return e?.primary_issue ?? '';
    if (sort.key === 'score') return e?.score ?? -1;
    return sort.key === 'text' ? r.text : r.line;
  };
  return filtered.sort((a, b) => {
    const x = rank(a);
    const y = rank(b);
    return (x < y ? -1 : x > y ? 1 : a.line - b.line) * sort.dir;
  });
}
