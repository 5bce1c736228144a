/** Which batch runs become jobs, and the body each is sent with. */
import { describe, expect, it } from 'vitest';
import { readCsv, readLines } from '@/lib/batch/read-batch-file';
import { JOB_THRESHOLD_ROWS, jobUploadFor, linesAsJsonLines, sendsAsJob } from './job-upload';

const file = (text: string) => new Blob([text], { type: 'text/csv' });

describe('job upload', () => {
  it('sends runs above the threshold as jobs', () => {
    expect(JOB_THRESHOLD_ROWS).toBe(2_000);
    expect(sendsAsJob(2_000)).toBe(false);
    expect(sendsAsJob(2_001)).toBe(true);
  });

  it('sends a CSV with a header as it is, naming the chosen column', () => {
    const text = 'id,comment\n1,hello there\n2,you idiot\n';
    const f = file(text);
    const upload = jobUploadFor(readCsv(text), f, 1);
    expect(upload).toEqual({ body: f, contentType: 'text/csv', textColumn: 'comment' });
  });

  it('names the column as the server trims it', () => {
    const text = ' id , comment \n1,hello there\n';
    expect(jobUploadFor({ ...readCsv(text), hasHeader: true }, file(text), 1)).toMatchObject({ textColumn: 'comment' });
  });

  it('keeps a CSV in the browser when the server could not find the chosen column by name', () => {
    const noHeader = 'hello there, friend\nyou idiot, again\n';
    expect(jobUploadFor({ ...readCsv(noHeader), hasHeader: false }, file(noHeader), 0)).toEqual({
      reason: 'a job needs a header row naming the columns, and this file has none',
    });
    const repeated = 'text,text\na,b\n';
    expect(jobUploadFor({ ...readCsv(repeated), hasHeader: true }, file(repeated), 1)).toEqual({
      reason: 'a job finds its text column by name, and “text_2” is not a unique name in the header',
    });
    expect(jobUploadFor({ ...readCsv(repeated), hasHeader: true }, file(repeated), 0)).toMatchObject({ textColumn: 'text' });
    const blank = 'id,\n1,some words here\n';
    expect(jobUploadFor({ ...readCsv(blank), hasHeader: true }, file(blank), 1)).toHaveProperty('reason');
    expect(jobUploadFor(readCsv('text\nhello\n'), undefined, 0)).toHaveProperty('reason');
  });

  it('sends pasted lines as JSON Lines whose line numbers are the source lines', async () => {
    const source = readLines('first\n\n  second "quoted"  \n\n\nthird\n');
    expect(linesAsJsonLines(source.records)).toBe('{"text":"first"}\n\n{"text":"second \\"quoted\\""}\n\n\n{"text":"third"}\n');
    const upload = jobUploadFor(source, undefined, 0);
    expect(upload).toMatchObject({ contentType: 'application/x-ndjson' });
    const lines = (await (upload as { body: Blob }).body.text()).split('\n');
    expect(JSON.parse(lines[5]!)).toEqual({ text: 'third' });
  });
});
