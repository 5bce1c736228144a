/** The batch table's order and filters, without React. */
import { describe, expect, it } from 'vitest';
import type { BatchRow } from './run-batch';
import { shownBatchRows } from './sort-batch-rows';

const row = (line: number, text: string, summary?: 'likely_safe' | 'highly_harmful', score = 0): BatchRow =>
  ({ line, text, result: summary ? { ensemble: { summary, score, primary_issue: 'none', severity: 'low' } } : undefined }) as BatchRow;

describe('batch rows shown', () => {
  const rows = [row(1, 'b harm', 'highly_harmful', 0.9), row(2, 'a fine', 'likely_safe', 0.1), row(3, 'pending')];
  it('shows finished rows only, filtered by summary and text, sorted with ties by line', () => {
    expect(shownBatchRows(rows, '', '', { key: 'line', dir: 1 }).map((r) => r.line)).toEqual([1, 2]);
    expect(shownBatchRows(rows, '', '', { key: 'text', dir: 1 }).map((r) => r.line)).toEqual([2, 1]);
    expect(shownBatchRows(rows, '', '', { key: 'score', dir: -1 }).map((r) => r.line)).toEqual([1, 2]);
    expect(shownBatchRows(rows, 'likely_safe', '', { key: 'line', dir: 1 }).map((r) => r.line)).toEqual([2]);
    expect(shownBatchRows(rows, '', ' HARM ', { key: 'line', dir: 1 }).map((r) => r.line)).toEqual([1]);
  });
});
