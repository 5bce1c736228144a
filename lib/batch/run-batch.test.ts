import { describe, expect, it } from 'vitest';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { parse as parseCsv } from 'csv-parse/sync';
import { exportBatchCsv } from './export-batch';
import { readCsv, rowsOf, columnsOf } from './read-batch-file';
import { rerunnable, rowsForRerun, rowsToModerate, runBatch, type ModerateChunk } from './run-batch';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const verdict = (text: string): ModerationResponse => ({
  text,
  label: {
    sexism: { score: 0.1, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: false },
    toxicity: { overall: 0.9, insult: 0.9, threat: 0, identity_attack: 0, profanity: 0, model_version: 'toxic_transformer_v1' },
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
  ensemble: { summary: 'likely_harmful', primary_issue: 'insult', score: 0.7, severity: 'medium' },
  meta: { processing_time_ms: 1, models_used: ['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1'] },
});

const options = (signal = new AbortController().signal) => ({
  chunkSize: 2,
  maxChars: 10,
  signal,
  statusOf: (e: unknown) => (e instanceof HttpError ? e.status : 0),
  describe: (e: unknown) => (e as Error).message,
});

describe('running a batch', () => {
  it('runs again only the rows that failed for the server or were never sent', async () => {
    const src = readCsv('id,text\n1,ok one\n2,\n3,busy one\n4,late one\n');
    const first = await runBatch(
      rowsToModerate(rowsOf(src), 1, 100),
      async (texts) => {
        if (texts.includes('busy one')) throw new HttpError(503, 'Server busy');
        return texts.map(verdict);
      },
      { ...options(), chunkSize: 1 },
    );
    expect(first.rows.map((r) => [r.line, r.result ? 'ok' : r.error])).toEqual([
      [2, 'ok'],
      [3, 'No text in the chosen column.'],
      [4, 'Server busy'],
      [5, 'ok'],
    ]);
    const again = rowsForRerun(first.rows);
    expect(again.filter(rerunnable).map((r) => r.line)).toEqual([4]);
    const sent: string[][] = [];
    const second = await runBatch(
      again,
      async (texts) => {
        sent.push(texts);
        return texts.map(verdict);
      },
      options(),
    );
    expect(sent).toEqual([['busy one']]);
    expect(second.rows.map((r) => [r.line, r.result ? 'ok' : r.error])).toEqual([
      [2, 'ok'],
      [3, 'No text in the chosen column.'],
      [4, 'ok'],
      [5, 'ok'],
    ]);
  });

  it('never sends a line the CSV reader could not split; the export shows it under the text column', async () => {
    const src = readCsv('id,text,lang\n1,first,en\n2,"never closed,en\n3,third,en\n');
    const rows = rowsToModerate(rowsOf(src), 1, 100);
    const sent: string[][] = [];
    const { rows: out } = await runBatch(
      rows,
      async (texts) => {
        sent.push(texts);
        return texts.map(verdict);
      },
      options(),
    );
    expect(sent).toEqual([['first', 'third']]);
    expect(out.map((r) => [r.line, r.result ? 'ok' : r.error?.slice(0, 20)])).toEqual([
      [2, 'ok'],
      [3, 'A quote opens a fiel'],
      [4, 'ok'],
    ]);
    const exported = parseCsv(exportBatchCsv(out, columnsOf(src)), { columns: true }) as Record<string, string>[];
    expect(exported[1]).toMatchObject({ source_line: '3', id: '', text: '2,"never closed,en', lang: '', vigil_summary: '' });
    expect(exported[1]!.vigil_error).toMatch(/never closed/);
  });

  it('marks an over-long row by its source line and moderates the rest', async () => {
    const src = readCsv('id,text\n1,short\n\n2,waytoolongtext\n3,fine\n');
    const rows = rowsToModerate(rowsOf(src), 1, 10);
    const sent: string[][] = [];
    const moderate: ModerateChunk = async (texts) => {
      sent.push(texts);
      return texts.map(verdict);
    };
    const { rows: out } = await runBatch(rows, moderate, options());
    expect(sent).toEqual([['short', 'fine']]);
    expect(out.map((r) => [r.line, r.result?.ensemble.summary ?? r.error])).toEqual([
      [2, 'likely_harmful'],
      [4, 'Longer than 10 characters (14); not moderated.'],
      [5, 'likely_harmful'],
    ]);
  });

  it('retries a refused chunk text by text to find the bad row; a server failure marks its chunk and goes on', async () => {
    const rows = rowsToModerate(
      [1, 2, 3, 4].map((n) => ({ line: n, cells: [`t${n}`] })),
      0,
      10,
    );
    const moderate: ModerateChunk = async (texts) => {
      if (texts.includes('t2')) throw new HttpError(texts.length > 1 ? 422 : 422, 'bad text');
      if (texts.includes('t3')) throw new HttpError(503, 'busy');
      return texts.map(verdict);
    };
    const progress: number[] = [];
    const { rows: out } = await runBatch(rows, moderate, { ...options(), onProgress: (d) => progress.push(d) });
    expect(out.map((r) => r.error ?? 'ok')).toEqual(['ok', 'bad text', 'busy', 'busy']);
    expect(progress).toEqual([0, 2, 4]);
  });

  it('stops when cancelled and reports it', async () => {
    const controller = new AbortController();
    const rows = rowsToModerate(
      [1, 2, 3, 4].map((n) => ({ line: n, cells: [`t${n}`] })),
      0,
      10,
    );
    const moderate: ModerateChunk = async (texts) => {
      controller.abort();
      return texts.map(verdict);
    };
    const { rows: out, cancelled } = await runBatch(rows, moderate, options(controller.signal));
    expect(cancelled).toBe(true);
    expect(out.filter((r) => r.result)).toHaveLength(2);
  });
});

describe('batch export', () => {
  it('keeps every source column in source order, with the source line and the verdict columns', async () => {
    const src = readCsv('id,message,lang\n7,"hi, you idiot",en\n\n9,-5,en\n');
    const rows = rowsToModerate(rowsOf(src), 1, 100);
    const { rows: out } = await runBatch(rows, async (t) => t.map(verdict), options());
    const csv = parseCsv(exportBatchCsv([...out].reverse(), columnsOf(src)));
    expect(csv[0]).toEqual([
      'source_line',
      'id',
      'message',
      'lang',
      'vigil_summary',
      'vigil_primary_issue',
      'vigil_severity',
      'vigil_score',
      'vigil_sexism',
      'vigil_toxicity',
      'vigil_language_note',
      'vigil_error',
    ]);
    expect(csv.slice(1).map((r) => r.slice(0, 5))).toEqual([
      ['2', '7', 'hi, you idiot', 'en', 'likely_harmful'],
      ['4', '9', '-5', 'en', 'likely_harmful'],
    ]);
  });
});
